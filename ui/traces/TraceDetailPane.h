#pragma once

#include "store/TraceRecord.h"

#include <QtWidgets/QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace Aile::Ui {

class AttemptTimeline;
class KeyRoutingDialog;
class ManagementClient;

/// Under the traces table: the selected request, its attempts and refusals in order on a
/// timeline, and the same rows as a table (sequence, sharer, status, outcome, reason, first
/// byte, duration).
class TraceDetailPane : public QWidget
{
    Q_OBJECT
public:
    enum AttemptColumn { Seq, Sharer, Status, Outcome, Reason, FirstByte, Duration, Tokens, Quote, Action, AttemptColumnCount };

    explicit TraceDetailPane(QWidget *parent = nullptr);

    void showTrace(const Store::TraceRecord &trace);
    void clear();
    QTableWidget *attemptsTable() const { return m_attempts; }

    /// Where the attempt rows' actions go (POST /traces/{id}/actions); without it they are off.
    void setClient(ManagementClient *client);
    /// The action a row's button runs (docs/gui.md, "From a trace to a fix"); for "Open the key's
    /// routing" the dialog it opened (else null).
    KeyRoutingDialog *runAction(int row);
    /// "Why this sharer?": the explanation, shown under the summary.
    QString explainChoice();
    QString actionResult() const;

Q_SIGNALS:
    /// An action came back from the engine (the engine recorded it as a trace of client aile-action).
    void actionFinished(bool ok, const QString &message);

private:
    QLabel *m_summary;
    AttemptTimeline *m_timeline;
    QTableWidget *m_attempts;
    QPushButton *m_why;
    QLabel *m_whyText;
    QLabel *m_actionResult;
    ManagementClient *m_client = nullptr;
    Store::TraceRecord m_trace;
};

} // namespace Aile::Ui
