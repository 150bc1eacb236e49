#include "StatusIcon.h"

#include <QtGui/QPainter>
#include <QtGui/QPixmap>

namespace Aile::Ui {

namespace {

QColor colorOf(ProxyState state)
{
    // Traffic-light colours read the same on light and dark palettes.
    switch (state) {
    case ProxyState::Listening: return QColor(0x2e, 0xa0, 0x43);
    case ProxyState::Starting: return QColor(0xd9, 0x8e, 0x04);
    case ProxyState::Failed: return QColor(0xd0, 0x30, 0x30);
    case ProxyState::Stopping: break;
    }
    return QColor(0x80, 0x80, 0x80);
}

QPixmap badge(ProxyState state, int size)
{
    QPixmap pm(size, size);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    const qreal margin = size / 8.0;
    const QRectF r(margin, margin, size - 2 * margin, size - 2 * margin);
    p.setPen(QPen(colorOf(state).darker(140), qMax(1.0, size / 16.0)));
    p.setBrush(colorOf(state));
    p.drawEllipse(r);
    // A white "A" keeps the tray badge recognisable as Aile's next to other green dots.
    if (size >= 22) {
        QFont f = p.font();
        f.setBold(true);
        f.setPixelSize(int(r.height() * 0.62));
        p.setFont(f);
        p.setPen(Qt::white);
        p.drawText(r, Qt::AlignCenter, QStringLiteral("A"));
    }
    return pm;
}

} // namespace

QIcon statusIcon(ProxyState state)
{
    QIcon icon;
    for (int size : {12, 16, 22, 32, 48, 64})
        icon.addPixmap(badge(state, size));
    return icon;
}

} // namespace Aile::Ui
