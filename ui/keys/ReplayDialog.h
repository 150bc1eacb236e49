#pragma once

#include "api/values/ReplayResult.h"

#include <QtCore/QJsonObject>
#include <QtWidgets/QDialog>

class QChart;
class QChartView;
class QLabel;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace Aile::Ui {

class ManagementClient;

/// "Replay history…" from a route's dialog or the key's Routing dialog (docs/replay.md): the key's
/// recorded requests of the last days replayed with the edits not saved yet (POST
/// /keys/route-replay), shown beside what really happened: cost, served requests, budget, cost-cap
/// and no-sharer counts with their first day, a chart of the cost per day (actual and projected),
/// the requests per target and sharer, and the five requests whose outcome changes most. Nothing
/// is sent, charged or written; the answer comes asynchronously and the window never waits on it.
class ReplayDialog : public QDialog
{
    Q_OBJECT
public:
    /// edits: "routing" and/or "route" as the dialog that opened it holds them, unsaved.
    ReplayDialog(ManagementClient *client, const QString &keyId, const QString &keyName, const Api::ReplayAsk &edits, QWidget *parent = nullptr);

    void setDays(int days);
    /// Asks the engine; answered() or failed() follows.
    void run();

    QTreeWidget *comparison() const { return m_comparison; }
    QTreeWidget *changes() const { return m_changes; }
    QTreeWidget *counts() const { return m_counts; }
    QChart *chart() const;
    QString summary() const;
    Api::ReplayResult lastAnswer() const { return m_answer; }

Q_SIGNALS:
    void answered();
    void failed(const QString &message);

private:
    void showAnswer(const Api::ReplayResult &answer);
    void fillChart(const Api::ReplayResult &answer);
    static QString outcomeText(const QJsonObject &outcome);

    ManagementClient *m_client;
    QString m_keyId;
    Api::ReplayAsk m_edits; // the unsaved routing or route; run() adds the key and the days
    QSpinBox *m_days;
    QPushButton *m_run;
    QLabel *m_summary;
    QTreeWidget *m_comparison;
    QChartView *m_chart;
    QTreeWidget *m_counts;
    QTreeWidget *m_changes;
    QLabel *m_notes;
    Api::ReplayResult m_answer;
};

} // namespace Aile::Ui
