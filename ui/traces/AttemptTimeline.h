#pragma once

#include "store/TraceRecord.h"

#include <QtWidgets/QWidget>

namespace Aile::Ui {

/// One request's attempts on a shared time axis, one lane each, in order: a bar from the
/// attempt's start to its end with a tick at its first byte, and a diamond for a sharer passed
/// over before dialling (a refusal). Colours come from the palette, so it follows light and dark.
class AttemptTimeline : public QWidget
{
    Q_OBJECT
public:
    explicit AttemptTimeline(QWidget *parent = nullptr);

    void setTrace(const Store::TraceRecord &trace);
    void clear();

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    struct Lane
    {
        QString label;
        qint64 startMs = 0; // from the request's start
        qint64 ttfbMs = -1;
        qint64 durationMs = 0;
        bool refused = false;
        bool served = false;
    };
    qint64 spanMs() const;

    QList<Lane> m_lanes;
    qint64 m_totalMs = 0;
};

} // namespace Aile::Ui
