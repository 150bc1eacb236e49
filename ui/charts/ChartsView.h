#pragma once

#include "ChartData.h"
#include "store/UsageSummary.h"

#include <QtCore/QHash>
#include "api/values/EngineStatus.h"

#include <QtCore/QJsonArray>
#include <QtWidgets/QWidget>

#include <functional>

class QAbstractSeries;
class QChart;
class QChartView;
class QLabel;
class QTimer;

namespace Aile::Store {
class Store;
class StoreReader;
} // namespace Aile::Store

namespace Aile::Ui {

class ManagementClient;

/// The Charts page (Qt Charts): time to first token per sharer and requests and failures per
/// minute over the last hour, spend per day per key and per route over the last two weeks, and
/// the money spent beside what the subscriptions served at list price (PlanValueChart), with a
/// summary line of today's figures above.
/// With the window's own store file at hand, everything is read and summed on the StoreReader's
/// thread (the engine's thread stays free for requests); otherwise (attached to `aile serve` or a
/// team server, or no store file yet) the engine sums the same figures and sends them through the
/// management API (GET /keys/usage/charts). The GUI thread only draws. Live traces only schedule a refresh (at most one every two seconds, one read
/// at a time, and none while the page is hidden).
class ChartsView : public QWidget
{
    Q_OBJECT
public:
    static constexpr int WindowMinutes = 60;
    static constexpr int SpendDays = 14;

    explicit ChartsView(QWidget *parent = nullptr);

    /// The store reader, or null. Not owned.
    void setReader(Store::StoreReader *reader);
    /// The way to the engine, used while there is no store reader. Not owned.
    void setClient(ManagementClient *client);
    void setKeys(const QList<Api::KeyInfo> &keys);
    void noteLive(const QList<Store::TraceRecord> &traces);
    /// Reads the store and redraws when the figures arrive (drawn() follows).
    void refresh();
    /// For tests and screenshots: where "now" comes from (the system clock by default).
    void setNow(std::function<qint64()> now)
    {
        m_now = std::move(now);
        m_engineClock = false;
    }

    QChart *firstTokenChart() const;
    QChart *perMinuteChart() const;
    QChart *spendByKeyChart() const;
    QChart *spendByRouteChart() const;
    QChart *planValueChart() const;
    /// "Claude Max served $41.00 of list-price usage today; API keys cost $3.20".
    QString summaryText() const;
    /// The money charts' axes, attached to the series: the days (day numbers, the months in the
    /// axis title) and dollars up to mostUsd.
    static void addDayAxes(QChart *chart, QAbstractSeries *series, const QStringList &days, double mostUsd);

Q_SIGNALS:
    /// The charts were redrawn with fresh figures.
    void drawn();

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    QChartView *makeView(const char *name, const QString &accessibleName);
    using Figures = ChartData::ChartFigures;
    ChartData::ChartAsk ask() const;
    void readFinished();
    void draw(const Figures &figures);
    void fillFirstToken(const QList<ChartData::SharerSeries> &series, qint64 from, qint64 to);
    void fillPerMinute(const QList<ChartData::MinuteCount> &minutes, qint64 from, qint64 to);
    void fillSpend(QChart *chart, const QString &title, const ChartData::SpendTable &table);
    void applyPalette(QChart *chart) const;
    static void clearChart(QChart *chart);

    Store::StoreReader *m_reader = nullptr;
    ManagementClient *m_client = nullptr;
    bool m_reading = false;
    int m_generation = 0;
    QHash<QString, QString> m_keyNames;
    QChartView *m_firstToken;
    QChartView *m_perMinute;
    QChartView *m_spendByKey;
    QChartView *m_spendByRoute;
    QChartView *m_planValue;
    QLabel *m_summary;
    QTimer *m_refreshSoon;
    QTimer *m_tick;
    bool m_dirty = true;
    std::function<qint64()> m_now;
    bool m_engineClock = true; // an attached engine's "now" is its own clock's
};

} // namespace Aile::Ui
