// The Charts view reads the store: time to first token per sharer and requests and failures per
// minute over the last hour, spend per day per key and per route; it redraws after live traces
// and follows the palette.
#include "api/values/JsonFields.h"
#include "ReadWait.h"
#include "charts/ChartData.h"
#include "charts/ChartsView.h"
#include "store/Store.h"

#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QStackedBarSeries>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

using namespace Aile;

namespace {

constexpr qint64 Now = 1'780'000'000'000; // a fixed "now", injected into the view
constexpr qint64 Minute = 60'000;
constexpr qint64 Day = 24 * 60 * Minute;

Store::TraceRecord trace(const QString &id, qint64 startedMs, const QString &sharer, int status, qint64 ttfbMs)
{
    Store::TraceRecord t;
    t.id = id;
    t.startedMs = startedMs;
    t.sharerName = sharer;
    t.status = status;
    t.ttfbMs = ttfbMs;
    return t;
}

Store::LedgerEntry charge(qint64 atMs, const QString &keyId, const QString &route, double usd)
{
    Store::LedgerEntry e;
    e.traceId = QStringLiteral("req_%1_%2").arg(keyId).arg(atMs); // one ledger row per request
    e.atMs = atMs;
    e.day = Store::utcDay(atMs);
    e.keyId = keyId;
    e.route = route;
    e.costUsd = usd;
    return e;
}

QStringList seriesNames(QChart *chart)
{
    QStringList names;
    for (QAbstractSeries *s : chart->series())
        names << s->name();
    return names;
}

QStringList barSetNames(QChart *chart)
{
    QStringList names;
    for (QAbstractSeries *s : chart->series())
        if (auto *bars = qobject_cast<QStackedBarSeries *>(s))
            for (QBarSet *set : bars->barSets())
                names << set->label();
    return names;
}

} // namespace

class TestChartsView : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_path;
    std::unique_ptr<Store::Store> m_writer;
    std::unique_ptr<Store::StoreReader> m_reader;

private Q_SLOTS:
    void initTestCase()
    {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        m_path = m_dir.filePath(QStringLiteral("aile.db"));
        m_writer = std::make_unique<Store::Store>(m_path);
        QVERIFY(m_writer->open(nullptr));
        QList<Store::TraceRecord> traces;
        for (int i = 0; i < 30; ++i) {
            traces << trace(QStringLiteral("w%1").arg(i), Now - 50 * Minute + i * Minute, QStringLiteral("work"), 200, 300 + i * 10);
            traces << trace(QStringLiteral("h%1").arg(i), Now - 50 * Minute + i * Minute + 500, QStringLiteral("home"), i % 3 ? 200 : 503, 900);
        }
        traces << trace(QStringLiteral("old"), Now - 3 * 60 * Minute, QStringLiteral("stale"), 200, 100); // outside the hour
        QList<Store::LedgerEntry> ledger{charge(Now - 2 * Day, QStringLiteral("k_laptop"), QStringLiteral("coding"), 1.25),
                                         charge(Now - 2 * Day, QStringLiteral("k_ci"), QString(), 0.50),
                                         charge(Now - Minute, QStringLiteral("k_laptop"), QStringLiteral("coding"), 0.75),
                                         charge(Now - 30 * Day, QStringLiteral("k_ci"), QString(), 9.0)}; // outside two weeks
        QVERIFY(m_writer->record(traces, ledger));
        m_reader = Test::openedReader(m_path);
        QVERIFY(m_reader);
    }

    void perMinuteCountsEveryMinuteOfTheWindow()
    {
        const QList<Store::TraceRecord> traces{trace(QStringLiteral("a"), Now - 90'000, QStringLiteral("x"), 200, 1),
                                               trace(QStringLiteral("b"), Now - 80'000, QStringLiteral("x"), 429, 1),
                                               trace(QStringLiteral("c"), Now - 1000, QStringLiteral("x"), 0, -1)};
        const QList<Ui::ChartData::MinuteCount> minutes = Ui::ChartData::perMinute(traces, Now - 5 * Minute, Now);
        QVERIFY(minutes.size() >= 5 && minutes.size() <= 6);
        int requests = 0, failures = 0;
        for (const auto &m : minutes) {
            requests += m.requests;
            failures += m.failures;
        }
        QCOMPARE(requests, 3);
        QCOMPARE(failures, 2); // a 429 and no answer at all
    }

    void firstTokenKeepsTheBusiestSharers()
    {
        QList<Store::TraceRecord> traces;
        for (int s = 0; s < 10; ++s)
            for (int i = 0; i <= s; ++i)
                traces << trace(QStringLiteral("%1-%2").arg(s).arg(i), Now - i * 1000, QStringLiteral("s%1").arg(s), 200, 100);
        traces << trace(QStringLiteral("nofirstbyte"), Now, QStringLiteral("s9"), 503, -1);
        const auto series = Ui::ChartData::firstTokenBySharer(traces, 3);
        QCOMPARE(series.size(), 3);
        QCOMPARE(series.at(0).sharer, QStringLiteral("s7"));
        QCOMPARE(series.at(2).sharer, QStringLiteral("s9"));
        QCOMPARE(series.at(2).points.size(), 10);
        QVERIFY(series.at(2).points.first().x() < series.at(2).points.last().x());
    }

    void spendPerDayGroupsByName()
    {
        const QStringList days = Ui::ChartData::lastDays(Now, 3);
        QCOMPARE(days.size(), 3);
        QCOMPARE(days.last(), Store::utcDay(Now));
        const QList<Store::LedgerEntry> entries{charge(Now, QStringLiteral("a"), {}, 1), charge(Now, QStringLiteral("b"), {}, 3),
                                                charge(Now - Day, QStringLiteral("a"), {}, 1)};
        const auto table = Ui::ChartData::spendPerDay(days, entries, [](const Store::LedgerEntry &e) { return e.keyId; });
        QCOMPARE(table.names, (QStringList{QStringLiteral("b"), QStringLiteral("a")}));
        QCOMPARE(table.usd.value(QStringLiteral("a")), (QList<double>{0, 1, 1}));
        QCOMPARE(table.total(), 5.0);
    }

    void drawsTheStoreLastHourAndTwoWeeks()
    {
        Ui::ChartsView view;
        view.setNow([] { return Now; });
        view.setKeys(Api::Json::listOf<Api::KeyInfo>(
            QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("k_laptop")}, {QStringLiteral("name"), QStringLiteral("laptop")}},
                       QJsonObject{{QStringLiteral("id"), QStringLiteral("k_ci")}, {QStringLiteral("name"), QStringLiteral("ci")}}}));
        view.setReader(m_reader.get());
        QSignalSpy drawn(&view, &Ui::ChartsView::drawn);
        view.refresh();
        QVERIFY(drawn.wait());

        QCOMPARE(seriesNames(view.firstTokenChart()), (QStringList{QStringLiteral("home"), QStringLiteral("work")}));
        auto *work = qobject_cast<QLineSeries *>(view.firstTokenChart()->series().at(1));
        QCOMPARE(work->count(), 30);
        QCOMPARE(work->at(0).y(), 300.0);

        QCOMPARE(seriesNames(view.perMinuteChart()), (QStringList{QStringLiteral("Requests"), QStringLiteral("Failures")}));
        double requests = 0, failures = 0;
        for (const QPointF &p : qobject_cast<QLineSeries *>(view.perMinuteChart()->series().at(0))->points())
            requests += p.y();
        for (const QPointF &p : qobject_cast<QLineSeries *>(view.perMinuteChart()->series().at(1))->points())
            failures += p.y();
        QCOMPARE(requests, 60.0);
        QCOMPARE(failures, 10.0);
        QVERIFY(view.perMinuteChart()->title().contains(QLatin1String("83.3%")));

        QCOMPARE(barSetNames(view.spendByKeyChart()), (QStringList{QStringLiteral("laptop"), QStringLiteral("ci")}));
        QCOMPARE(barSetNames(view.spendByRouteChart()), (QStringList{QStringLiteral("coding"), QStringLiteral("(no route)")}));
        QVERIFY2(view.spendByKeyChart()->title().contains(QLatin1String("$2.50")), qPrintable(view.spendByKeyChart()->title()));
    }

    void redrawsAfterLiveTracesWhileShown()
    {
        Ui::ChartsView view;
        view.setNow([] { return Now; });
        view.setReader(m_reader.get());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTRY_COMPARE(view.firstTokenChart()->series().size(), 2);
        const Store::TraceRecord fresh = trace(QStringLiteral("fresh"), Now - Minute, QStringLiteral("office"), 200, 450);
        QVERIFY(m_writer->record({fresh}, {}));
        view.noteLive({fresh});
        QTRY_COMPARE(view.firstTokenChart()->series().size(), 3);
        QVERIFY(seriesNames(view.firstTokenChart()).contains(QStringLiteral("office")));
    }

    void followsThePalette()
    {
        Ui::ChartsView view;
        view.setNow([] { return Now; });
        view.setReader(m_reader.get());
        QSignalSpy drawn(&view, &Ui::ChartsView::drawn);
        view.refresh();
        QVERIFY(drawn.wait());
        QPalette dark;
        dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
        dark.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
        view.setPalette(dark);
        QCOMPARE(view.firstTokenChart()->backgroundBrush().color(), QColor(0x20, 0x20, 0x20));
        QCOMPARE(view.spendByKeyChart()->titleBrush().color(), QColor(0xee, 0xee, 0xee));
    }
};

QTEST_MAIN(TestChartsView)
#include "TestChartsView.moc"
