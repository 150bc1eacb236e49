#pragma once

#include "store/TraceRecord.h"

#include <QtWidgets/QWidget>

class QLabel;
class QTableWidget;

namespace Aile::Ui {

class AttemptTimeline;

/// Under the traces table: the selected request, its attempts and refusals in order on a
/// timeline, and the same rows as a table (sequence, sharer, status, outcome, reason, first
/// byte, duration).
class TraceDetailPane : public QWidget
{
    Q_OBJECT
public:
    enum AttemptColumn { Seq, Sharer, Status, Outcome, Reason, FirstByte, Duration, Tokens, Quote, AttemptColumnCount };

    explicit TraceDetailPane(QWidget *parent = nullptr);

    void showTrace(const Store::TraceRecord &trace);
    void clear();
    QTableWidget *attemptsTable() const { return m_attempts; }

private:
    QLabel *m_summary;
    AttemptTimeline *m_timeline;
    QTableWidget *m_attempts;
};

} // namespace Aile::Ui
