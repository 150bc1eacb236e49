#include "AttemptTimeline.h"

#include "common/Format.h"

#include <QtGui/QPainter>
#include <QtGui/QPainterPath>

namespace Aile::Ui {

namespace {

constexpr int LaneHeight = 22;
constexpr int AxisHeight = 20;
constexpr int Margin = 6;

} // namespace

AttemptTimeline::AttemptTimeline(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("attemptTimeline"));
    setAccessibleName(tr("Attempt timeline"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void AttemptTimeline::setTrace(const Store::TraceRecord &trace)
{
    m_lanes.clear();
    m_totalMs = trace.durationMs;
    qint64 cursor = 0;
    QStringList description;
    for (const Store::AttemptRecord &a : trace.attemptRows) {
        Lane lane;
        lane.label = QStringLiteral("#%1 %2").arg(a.seq).arg(a.sharerName.isEmpty() ? a.sharer : a.sharerName);
        // Attempts recorded without a start time are laid end to end.
        lane.startMs = a.startedMs > 0 && trace.startedMs > 0 ? qMax<qint64>(0, a.startedMs - trace.startedMs) : cursor;
        lane.ttfbMs = a.ttfbMs;
        lane.durationMs = qMax<qint64>(0, a.durationMs);
        lane.refused = !a.dispatched || a.outcome == QLatin1String("refused");
        lane.served = a.outcome == QLatin1String("served") || a.outcome == QLatin1String("passed_through");
        cursor = lane.startMs + lane.durationMs;
        m_totalMs = qMax(m_totalMs, cursor);
        m_lanes.append(lane);
        description << tr("%1: %2 after %3, lasted %4")
                           .arg(lane.label, Format::outcome(a.outcome), Format::duration(lane.startMs), Format::duration(lane.durationMs));
    }
    setAccessibleDescription(description.join(QStringLiteral("; ")));
    updateGeometry();
    update();
}

void AttemptTimeline::clear()
{
    m_lanes.clear();
    m_totalMs = 0;
    setAccessibleDescription(QString());
    updateGeometry();
    update();
}

QSize AttemptTimeline::sizeHint() const
{
    return {480, AxisHeight + 2 * Margin + int(qMax<qsizetype>(1, m_lanes.size())) * LaneHeight};
}

QSize AttemptTimeline::minimumSizeHint() const
{
    return {200, sizeHint().height()};
}

qint64 AttemptTimeline::spanMs() const
{
    return qMax<qint64>(1, m_totalMs);
}

void AttemptTimeline::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    const QFontMetrics fm(font());
    if (m_lanes.isEmpty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No attempt recorded"));
        return;
    }
    int labelWidth = 0;
    for (const Lane &l : m_lanes)
        labelWidth = qMax(labelWidth, fm.horizontalAdvance(l.label));
    labelWidth = qMin(labelWidth + 12, width() / 3);
    const QRect plot(Margin + labelWidth, Margin, width() - 2 * Margin - labelWidth, int(m_lanes.size()) * LaneHeight);
    auto xAt = [&](qint64 ms) { return plot.left() + double(ms) / double(spanMs()) * plot.width(); };

    // Axis with the request's start and end.
    p.setPen(pal.color(QPalette::Mid));
    p.drawLine(plot.bottomLeft() + QPoint(0, 2), plot.bottomRight() + QPoint(0, 2));
    p.setPen(pal.color(QPalette::WindowText));
    const int axisY = plot.bottom() + 4;
    p.drawText(QRect(plot.left(), axisY, plot.width() / 2, AxisHeight), Qt::AlignLeft | Qt::AlignVCenter, Format::duration(0));
    p.drawText(QRect(plot.center().x(), axisY, plot.width() / 2, AxisHeight), Qt::AlignRight | Qt::AlignVCenter, Format::duration(spanMs()));

    const QColor served = pal.color(QPalette::Highlight);
    const QColor failed(0xd0, 0x30, 0x30);
    const QColor refused = pal.color(QPalette::Mid);
    for (int i = 0; i < m_lanes.size(); ++i) {
        const Lane &l = m_lanes.at(i);
        const QRect lane(plot.left(), plot.top() + i * LaneHeight, plot.width(), LaneHeight);
        p.setPen(pal.color(QPalette::WindowText));
        p.drawText(QRect(Margin, lane.top(), labelWidth - 6, LaneHeight), Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(l.label, Qt::ElideRight, labelWidth - 6));
        const double x0 = xAt(l.startMs);
        const int cy = lane.center().y();
        if (l.refused) {
            QPainterPath diamond;
            diamond.moveTo(x0, cy - 6);
            diamond.lineTo(x0 + 6, cy);
            diamond.lineTo(x0, cy + 6);
            diamond.lineTo(x0 - 6, cy);
            diamond.closeSubpath();
            p.setPen(Qt::NoPen);
            p.setBrush(refused);
            p.drawPath(diamond.translated(6, 0));
            continue;
        }
        const double x1 = qMax(x0 + 3, xAt(l.startMs + l.durationMs));
        const QColor color = l.served ? served : failed;
        p.setPen(Qt::NoPen);
        p.setBrush(color);
        p.drawRoundedRect(QRectF(x0, cy - 6, x1 - x0, 12), 3, 3);
        if (l.ttfbMs >= 0) {
            const double xt = xAt(l.startMs + l.ttfbMs);
            p.setPen(QPen(pal.color(QPalette::WindowText), 2));
            p.drawLine(QPointF(xt, cy - 9), QPointF(xt, cy + 9));
        }
    }
}

} // namespace Aile::Ui
