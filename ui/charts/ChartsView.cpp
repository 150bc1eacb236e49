#include "ChartsView.h"

#include "ChartData.h"
#include "PlanValueChart.h"
#include "common/Format.h"
#include "common/ManagementClient.h"
#include "store/Store.h"
#include "store/StoreReader.h"

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QDateTimeAxis>
#include <QtCharts/QLineSeries>
#include <QtCharts/QStackedBarSeries>
#include <QtCharts/QValueAxis>
#include <QtCore/QDate>
#include <QtCore/QDateTime>
#include <QtCore/QJsonObject>
#include <QtCore/QTimer>
#include <QtWidgets/QGridLayout>
#include <QtWidgets/QLabel>

namespace Aile::Ui {

namespace {

// A busy hour past this many requests is drawn from its newest part only; the charts stay quick.
constexpr int MaxChartTraces = 20000;
constexpr int MaxSpendNames = 6;

} // namespace

ChartsView::ChartsView(QWidget *parent)
    : QWidget(parent), m_firstToken(makeView("firstTokenChart", tr("Time to first token per sharer"))),
      m_perMinute(makeView("perMinuteChart", tr("Requests and failures per minute"))),
      m_spendByKey(makeView("spendByKeyChart", tr("Spend per day per key"))),
      m_spendByRoute(makeView("spendByRouteChart", tr("Spend per day per route"))),
      m_planValue(makeView("planValueChart", tr("Money spent and subscription usage at list price per day"))), m_summary(new QLabel(this)),
      m_refreshSoon(new QTimer(this)), m_tick(new QTimer(this)), m_now([] { return QDateTime::currentMSecsSinceEpoch(); })
{
    setObjectName(QStringLiteral("chartsView"));
    auto *grid = new QGridLayout(this);
    // Today's money and plan usage in words above the charts; the two weeks of both at the bottom.
    m_summary->setObjectName(QStringLiteral("usageSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_summary->font();
    bold.setBold(true);
    m_summary->setFont(bold);
    grid->addWidget(m_summary, 0, 0, 1, 2);
    grid->addWidget(m_firstToken, 1, 0);
    grid->addWidget(m_perMinute, 1, 1);
    grid->addWidget(m_spendByKey, 2, 0);
    grid->addWidget(m_spendByRoute, 2, 1);
    grid->addWidget(m_planValue, 3, 0, 1, 2);

    m_refreshSoon->setSingleShot(true);
    m_refreshSoon->setInterval(2000);
    connect(m_refreshSoon, &QTimer::timeout, this, &ChartsView::refresh);
    // The hour window slides even when nothing happens.
    m_tick->setInterval(60 * 1000);
    connect(m_tick, &QTimer::timeout, this, [this] {
        if (isVisible())
            refresh();
        else
            m_dirty = true;
    });
    m_tick->start();
}

QChartView *ChartsView::makeView(const char *name, const QString &accessibleName)
{
    auto *view = new QChartView(new QChart, this);
    view->setObjectName(QLatin1String(name));
    view->setAccessibleName(accessibleName);
    // The chart is drawn on the viewport, which takes the focus for the view: name it too.
    view->viewport()->setAccessibleName(accessibleName);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(320, 140); // three rows of charts and the summary still fit a window 690 pixels tall
    view->chart()->setTitle(accessibleName);
    view->chart()->legend()->setAlignment(Qt::AlignBottom);
    view->chart()->setAnimationOptions(QChart::NoAnimation);
    return view;
}

QChart *ChartsView::firstTokenChart() const
{
    return m_firstToken->chart();
}
QChart *ChartsView::perMinuteChart() const
{
    return m_perMinute->chart();
}
QChart *ChartsView::spendByKeyChart() const
{
    return m_spendByKey->chart();
}
QChart *ChartsView::spendByRouteChart() const
{
    return m_spendByRoute->chart();
}
QChart *ChartsView::planValueChart() const
{
    return m_planValue->chart();
}
QString ChartsView::summaryText() const
{
    return m_summary->text();
}

void ChartsView::setReader(Store::StoreReader *reader)
{
    m_reader = reader;
    m_reading = false;
    ++m_generation; // an answer of the previous source is not drawn
    m_dirty = true;
    if (isVisible())
        refresh();
}

void ChartsView::setClient(ManagementClient *client)
{
    m_client = client;
    // Another engine: what is in flight belongs to the old one (its answers never come).
    connect(client, &ManagementClient::transportChanged, this, [this] { setReader(m_reader); });
    m_dirty = true;
}

void ChartsView::setKeys(const QList<Api::KeyInfo> &keys)
{
    m_keyNames.clear();
    for (const Api::KeyInfo &k : keys)
        m_keyNames.insert(k.id, k.name);
}

void ChartsView::noteLive(const QList<Store::TraceRecord> &traces)
{
    if (traces.isEmpty())
        return;
    m_dirty = true;
    if (isVisible() && !m_refreshSoon->isActive())
        m_refreshSoon->start();
}

void ChartsView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_dirty)
        refresh();
}

void ChartsView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        for (QChartView *v : {m_firstToken, m_perMinute, m_spendByKey, m_spendByRoute, m_planValue})
            applyPalette(v->chart());
    }
}

void ChartsView::clearChart(QChart *chart)
{
    chart->removeAllSeries();
    for (QAbstractAxis *axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

ChartData::ChartAsk ChartsView::ask() const
{
    ChartData::ChartAsk a;
    a.now = m_now();
    a.minutes = WindowMinutes;
    a.days = SpendDays;
    a.maxTraces = MaxChartTraces;
    return a;
}

void ChartsView::refresh()
{
    if (m_reading) {
        m_dirty = true; // one read at a time: the next starts when this one is drawn
        return;
    }
    m_dirty = false;
    const ChartData::ChartAsk asked = ask();
    if (m_reader) {
        m_reading = true;
        m_reader->read<Figures>(
            "charts", [asked, keyNames = m_keyNames](const Store::Store &store) { return ChartData::readFigures(&store, asked, keyNames); }, this,
            [this, generation = m_generation](const Figures &f) {
                if (generation != m_generation)
                    return;
                draw(f);
                readFinished();
            });
        return;
    }
    if (!m_client)
        return draw(ChartData::readFigures(nullptr, asked, m_keyNames));
    m_reading = true;
    ChartData::ChartAsk remote = asked;
    if (m_engineClock)
        remote.now = 0;
    m_client->charts(remote, this, [this, generation = m_generation](const Reply<Figures> &reply) {
        if (generation != m_generation)
            return;
        // An engine that did not answer leaves the last figures drawn; the next batch asks again.
        if (reply.ok())
            draw(reply.value);
        readFinished();
    });
}

void ChartsView::readFinished()
{
    m_reading = false;
    if (m_dirty && isVisible() && !m_refreshSoon->isActive())
        m_refreshSoon->start();
}

void ChartsView::draw(const Figures &f)
{
    fillFirstToken(f.firstToken, f.from, f.now);
    fillPerMinute(f.perMinute, f.from, f.now);
    fillSpend(m_spendByKey->chart(), tr("Spend per day per key"), f.spendByKey);
    fillSpend(m_spendByRoute->chart(), tr("Spend per day per route"), f.spendByRoute);
    clearChart(m_planValue->chart());
    PlanValueChart::fill(m_planValue->chart(), f.usage);
    m_summary->setText(PlanValueChart::summary(f.usage));
    m_planValue->setAccessibleDescription(m_summary->text());
    for (QChartView *v : {m_firstToken, m_perMinute, m_spendByKey, m_spendByRoute, m_planValue})
        applyPalette(v->chart());
    Q_EMIT drawn();
}

void ChartsView::fillFirstToken(const QList<ChartData::SharerSeries> &series, qint64 from, qint64 to)
{
    QChart *chart = m_firstToken->chart();
    clearChart(chart);
    auto *x = new QDateTimeAxis;
    x->setFormat(QStringLiteral("HH:mm"));
    x->setRange(QDateTime::fromMSecsSinceEpoch(from), QDateTime::fromMSecsSinceEpoch(to));
    x->setTickCount(7);
    auto *y = new QValueAxis;
    y->setTitleText(tr("ms"));
    y->setLabelFormat(QStringLiteral("%d"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    double maxMs = 100;
    for (const ChartData::SharerSeries &s : series) {
        auto *line = new QLineSeries;
        line->setName(s.sharer);
        line->setPointsVisible(s.points.size() < 40);
        line->append(s.points);
        for (const QPointF &p : s.points)
            maxMs = qMax(maxMs, p.y());
        chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
    }
    y->setRange(0, maxMs * 1.1);
    y->applyNiceNumbers();
    chart->setTitle(series.isEmpty() ? tr("Time to first token per sharer (no request in the last hour)")
                                     : tr("Time to first token per sharer, last hour"));
    m_firstToken->setAccessibleDescription(tr("Sharers drawn: %1").arg(series.size()));
}

void ChartsView::fillPerMinute(const QList<ChartData::MinuteCount> &minutes, qint64 from, qint64 to)
{
    QChart *chart = m_perMinute->chart();
    clearChart(chart);
    auto *requests = new QLineSeries;
    requests->setName(tr("Requests"));
    auto *failures = new QLineSeries;
    failures->setName(tr("Failures"));
    int most = 1;
    int total = 0;
    int failed = 0;
    for (const ChartData::MinuteCount &m : minutes) {
        requests->append(double(m.minuteMs), m.requests);
        failures->append(double(m.minuteMs), m.failures);
        most = qMax(most, m.requests);
        total += m.requests;
        failed += m.failures;
    }
    auto *x = new QDateTimeAxis;
    x->setFormat(QStringLiteral("HH:mm"));
    x->setRange(QDateTime::fromMSecsSinceEpoch(from), QDateTime::fromMSecsSinceEpoch(to));
    x->setTickCount(7);
    auto *y = new QValueAxis;
    y->setLabelFormat(QStringLiteral("%d"));
    y->setRange(0, most);
    y->applyNiceNumbers();
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QLineSeries *s : {requests, failures}) {
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    }
    failures->setColor(QColor(0xd0, 0x30, 0x30));
    if (total == 0)
        chart->setTitle(tr("Requests and failures per minute (none in the last hour)"));
    else
        chart->setTitle(
            tr("Requests and failures per minute: %1% served in the last hour").arg(QLocale().toString(100.0 * (total - failed) / total, 'f', 1)));
    m_perMinute->setAccessibleDescription(tr("%1 requests, %2 failures in the last hour").arg(total).arg(failed));
}

void ChartsView::fillSpend(QChart *chart, const QString &title, const ChartData::SpendTable &table)
{
    clearChart(chart);
    const QStringList &days = table.days;
    auto *series = new QStackedBarSeries;
    QList<double> others(days.size(), 0.0);
    for (int i = 0; i < table.names.size(); ++i) {
        const QList<double> &values = table.usd.value(table.names.at(i));
        if (i >= MaxSpendNames) {
            for (int d = 0; d < days.size(); ++d)
                others[d] += values.at(d);
            continue;
        }
        auto *set = new QBarSet(table.names.at(i).isEmpty() ? tr("(no route)") : table.names.at(i));
        set->append(values);
        series->append(set);
    }
    if (table.names.size() > MaxSpendNames) {
        auto *set = new QBarSet(tr("others"));
        set->append(others);
        series->append(set);
    }
    chart->addSeries(series);
    double most = 0;
    for (int d = 0; d < days.size(); ++d) {
        double sum = 0;
        for (const QList<double> &values : table.usd)
            sum += values.at(d);
        most = qMax(most, sum);
    }
    addDayAxes(chart, series, days, most);
    chart->setTitle(tr("%1: %2 in the last %3 days").arg(title, Format::money(table.total())).arg(SpendDays));
}

void ChartsView::addDayAxes(QChart *chart, QAbstractSeries *series, const QStringList &days, double mostUsd)
{
    auto *x = new QBarCategoryAxis;
    // Fourteen labels fit only as day numbers; the axis title gives the months.
    QStringList labels;
    for (const QString &day : days)
        labels << QString::number(QDate::fromString(day, Qt::ISODate).day());
    x->append(labels);
    const auto dayAndMonth = [](const QString &day) { return QLocale().toString(QDate::fromString(day, Qt::ISODate), QStringLiteral("d MMM")); };
    x->setTitleText(tr("%1 to %2 (UTC)").arg(dayAndMonth(days.first()), dayAndMonth(days.last())));
    auto *y = new QValueAxis;
    y->setLabelFormat(QStringLiteral("$%.2f"));
    y->setRange(0, qMax(0.01, mostUsd));
    y->applyNiceNumbers();
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
}

void ChartsView::applyPalette(QChart *chart) const
{
    // Series keep the theme's colours; background and text follow the application's palette so
    // the charts sit in a dark window as well as a light one.
    const QPalette pal = palette();
    chart->setBackgroundBrush(pal.base());
    chart->setBackgroundPen(QPen(pal.color(QPalette::Mid)));
    chart->setTitleBrush(pal.text());
    chart->legend()->setLabelColor(pal.color(QPalette::Text));
    for (QAbstractAxis *axis : chart->axes()) {
        axis->setLabelsBrush(pal.text());
        axis->setTitleBrush(pal.text());
        axis->setLinePenColor(pal.color(QPalette::Mid));
        axis->setGridLineColor(pal.color(QPalette::Midlight));
    }
}

} // namespace Aile::Ui
