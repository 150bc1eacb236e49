#include "SecretClipboard.h"

#include <QtCore/QCryptographicHash>
#include <QtGui/QClipboard>
#include <QtGui/QGuiApplication>

namespace Aile::Ui {

namespace {
QByteArray hashOf(const QString &text)
{
    return QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256);
}
} // namespace

SecretClipboard::SecretClipboard(const QString &secret, std::chrono::milliseconds clearAfter, QObject *parent)
    : QObject(parent), m_hash(hashOf(secret))
{
    setObjectName(QStringLiteral("secretClipboard"));
    QGuiApplication::clipboard()->setText(secret);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &SecretClipboard::clearIfUnchanged);
    m_timer.start(clearAfter);
}

void SecretClipboard::clearIfUnchanged()
{
    QClipboard *clipboard = QGuiApplication::clipboard();
    const bool stillThere = hashOf(clipboard->text()) == m_hash;
    if (stillThere)
        clipboard->clear();
    Q_EMIT finished(stillThere);
    deleteLater();
}

} // namespace Aile::Ui
