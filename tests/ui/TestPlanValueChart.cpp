// Issue 17, what a subscription costs (docs/subscriptions.md "What it costs"): the Charts page
// says today's plan usage at list price and the money API keys cost in one line, and draws the
// plan's value as its own bars beside the money, never stacked onto it; the spend charts count
// money only. AILE_SHOTS=<folder> saves the screenshot the doc shows.
#include "ReadWait.h"
#include "charts/ChartsView.h"
#include "charts/PlanValueChart.h"
#include "store/Store.h"

#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QStackedBarSeries>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QLabel>

using namespace Aile;

namespace {

constexpr qint64 Now = 1'780'000'000'000;
constexpr qint64 Day = 24 * 3600 * 1000LL;
const QString Max = QStringLiteral("L00000000000005b1");
const QString ApiKey = QStringLiteral("L000000000000a9e1");

Store::LedgerEntry row(int n, qint64 atMs, const QString &sharer, double spentUsd, double listValueUsd)
{
    Store::LedgerEntry e;
    e.traceId = QStringLiteral("req_%1").arg(n);
    e.atMs = atMs;
    e.day = Store::utcDay(atMs);
    e.keyId = QStringLiteral("k_laptop");
    e.sharer = sharer;
    e.costUsd = spentUsd;
    e.subscription = listValueUsd > 0;
    e.listValueUsd = listValueUsd;
    return e;
}

Catalog::Sharer sharer(const QString &handle, const QString &name, const QString &kind)
{
    Catalog::Sharer s;
    s.handle = handle;
    s.name = name;
    s.provider = QStringLiteral("claude");
    s.kind = kind;
    return s;
}

QBarSet *setNamed(QChart *chart, const QString &label)
{
    for (QAbstractSeries *s : chart->series())
        if (auto *bars = qobject_cast<QAbstractBarSeries *>(s))
            for (QBarSet *set : bars->barSets())
                if (set->label() == label)
                    return set;
    return nullptr;
}

} // namespace

class TestPlanValueChart : public QObject
{
    Q_OBJECT

private:
    bool drawFromStore(Ui::ChartsView &view)
    {
        view.setNow([] { return Now; });
        view.setReader(m_reader.get());
        QSignalSpy drawn(&view, &Ui::ChartsView::drawn);
        view.refresh();
        return drawn.wait();
    }

    QTemporaryDir m_dir;
    std::unique_ptr<Store::Store> m_writer;
    std::unique_ptr<Store::StoreReader> m_reader;

private Q_SLOTS:
    void initTestCase()
    {
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        const QString path = m_dir.filePath(QStringLiteral("aile.db"));
        m_writer = std::make_unique<Store::Store>(path);
        QVERIFY(m_writer->open(nullptr));
        QVERIFY(m_writer->saveSharer(sharer(Max, QStringLiteral("Claude Max"), QStringLiteral("subscription"))));
        QVERIFY(m_writer->saveSharer(sharer(ApiKey, QStringLiteral("Anthropic API key"), QStringLiteral("api-key"))));
        // Today: four plan requests worth $10.25 each at list price, two API-key ones costing $1.60.
        QList<Store::LedgerEntry> ledger;
        int n = 0;
        for (int i = 0; i < 4; ++i)
            ledger << row(++n, Now - i * 60'000, Max, 0, 10.25);
        ledger << row(++n, Now - 1000, ApiKey, 1.60, 0);
        ledger << row(++n, Now - 2000, ApiKey, 1.60, 0);
        // Earlier days: a busy plan day, and a day the plan was out and the key served.
        for (int d = 1; d < 10; ++d) {
            ledger << row(++n, Now - d * Day, Max, 0, 3.0 * d);
            ledger << row(++n, Now - d * Day - 1000, ApiKey, 0.4 * (d % 3), 0);
        }
        // The last hour's requests, for the screenshot's upper charts.
        QList<Store::TraceRecord> traces;
        for (int i = 0; i < 40; ++i) {
            Store::TraceRecord t;
            t.id = QStringLiteral("req_t%1").arg(i);
            t.startedMs = Now - 55 * 60'000 + i * 80'000;
            const bool onPlan = i % 4 != 3;
            t.sharer = onPlan ? Max : ApiKey;
            t.sharerName = onPlan ? QStringLiteral("Claude Max") : QStringLiteral("Anthropic API key");
            t.status = 200;
            t.ttfbMs = onPlan ? 700 + (i * 37) % 300 : 420 + (i * 53) % 120;
            traces << t;
        }
        QVERIFY(m_writer->record(traces, ledger));
        m_reader = Test::openedReader(path);
        QVERIFY(m_reader);
    }

    void theSummarySaysWhatThePlanServedAndWhatKeysCost()
    {
        Ui::ChartsView view;
        QVERIFY(drawFromStore(view));
        const QString expected = QStringLiteral("Claude Max served $41.00 of list-price usage today; API keys cost $3.20");
        QCOMPARE(view.summaryText(), expected);
        auto *label = view.findChild<QLabel *>(QStringLiteral("usageSummary"));
        QVERIFY(label);
        QCOMPARE(label->text(), expected);
    }

    void thePlanValueIsItsOwnSeriesNotStackedOntoMoney()
    {
        Ui::ChartsView view;
        QVERIFY(drawFromStore(view));
        QChart *chart = view.planValueChart();
        QCOMPARE(chart->series().size(), 1);
        QVERIFY(qobject_cast<QBarSeries *>(chart->series().first())); // grouped, not stacked
        QVERIFY(!qobject_cast<QStackedBarSeries *>(chart->series().first()));
        QBarSet *money = setNamed(chart, QStringLiteral("Money spent (API keys)"));
        QBarSet *plan = setNamed(chart, QStringLiteral("Claude Max at list price (not spent)"));
        QVERIFY(money);
        QVERIFY(plan);
        const int today = Ui::ChartsView::SpendDays - 1;
        QCOMPARE(money->count(), Ui::ChartsView::SpendDays);
        QVERIFY(qAbs(money->at(today) - 3.20) < 1e-9);
        QCOMPARE(plan->at(today), 41.0);
        QCOMPARE(plan->at(today - 2), 6.0);
        QVERIFY(qAbs(money->at(today - 2) - 0.8) < 1e-9);
        QVERIFY2(chart->title().contains(QLatin1String("worth $176.00 at list price")), qPrintable(chart->title()));

        // The money charts count money only: the plan's rows add nothing to the key's spend.
        QBarSet *laptop = setNamed(view.spendByKeyChart(), QStringLiteral("k_laptop"));
        QVERIFY(laptop);
        QVERIFY(qAbs(laptop->at(today) - 3.20) < 1e-9);
    }

    void aDayWithoutThePlanSaysSo()
    {
        Store::UsageSummary u;
        u.days = QStringList{QStringLiteral("2026-11-30"), QStringLiteral("2026-12-01")};
        Store::SharerUsage key;
        key.sharer = ApiKey;
        key.name = QStringLiteral("Anthropic API key");
        key.spentUsd = {0.0, 2.5};
        key.listValueUsd = {0.0, 0.0};
        key.requests = {0, 3};
        u.sharers << key;
        QCOMPARE(Ui::PlanValueChart::summary(u), QStringLiteral("API keys cost $2.50 today; no subscription served a request today"));
    }

    void screenshot()
    {
        const QString dir = qEnvironmentVariable("AILE_SHOTS");
        if (dir.isEmpty())
            QSKIP("AILE_SHOTS is not set");
        Ui::ChartsView view;
        view.setNow([] { return Now; });
        view.setReader(m_reader.get());
        view.resize(1100, 960);
        QSignalSpy drawn(&view, &Ui::ChartsView::drawn);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(drawn.count() > 0 || drawn.wait());
        QTest::qWait(200);
        QVERIFY(view.grab().save(dir + QStringLiteral("/charts-subscription-value.png")));
    }
};

QTEST_MAIN(TestPlanValueChart)
#include "TestPlanValueChart.moc"
