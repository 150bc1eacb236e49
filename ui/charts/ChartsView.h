#pragma once

#include <QtCore/QHash>
#include <QtCore/QJsonArray>
#include <QtWidgets/QWidget>

#include <functional>

class QChart;
class QChartView;
class QTimer;

namespace Aile::Store {
class Store;
struct TraceRecord;
}

namespace Aile::Ui {

/// The Charts page (Qt Charts): time to first token per sharer and requests and failures per
/// minute over the last hour, spend per day per key and per route over the last two weeks.
/// Everything is read from the store; live traces only schedule a refresh (at most one every
/// two seconds, and none while the page is hidden).
class ChartsView : public QWidget
{
    Q_OBJECT
public:
    static constexpr int WindowMinutes = 60;
    static constexpr int SpendDays = 14;

    explicit ChartsView(QWidget *parent = nullptr);

    /// The GUI's read-only store, or null. Not owned.
    void setStore(const Store::Store *store);
    void setKeys(const QJsonArray &keys);
    void noteLive(const QList<Store::TraceRecord> &traces);
    /// Reads the store and redraws now.
    void refresh();
    /// For tests and screenshots: where "now" comes from (the system clock by default).
    void setNow(std::function<qint64()> now) { m_now = std::move(now); }

    QChart *firstTokenChart() const;
    QChart *perMinuteChart() const;
    QChart *spendByKeyChart() const;
    QChart *spendByRouteChart() const;

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    QChartView *makeView(const char *name, const QString &accessibleName);
    void fillFirstToken(const QList<Store::TraceRecord> &traces, qint64 from, qint64 to);
    void fillPerMinute(const QList<Store::TraceRecord> &traces, qint64 from, qint64 to);
    void fillSpend(QChart *chart, const QString &title, qint64 now, bool byKey);
    void applyPalette(QChart *chart) const;
    static void clearChart(QChart *chart);

    const Store::Store *m_store = nullptr;
    QHash<QString, QString> m_keyNames;
    QChartView *m_firstToken;
    QChartView *m_perMinute;
    QChartView *m_spendByKey;
    QChartView *m_spendByRoute;
    QTimer *m_refreshSoon;
    QTimer *m_tick;
    bool m_dirty = true;
    std::function<qint64()> m_now;
};

} // namespace Aile::Ui
