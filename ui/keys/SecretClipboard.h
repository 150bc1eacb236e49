#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QObject>
#include <QtCore/QTimer>

#include <chrono>

namespace Aile::Ui {

/// Puts a secret on the clipboard and takes it off again after a while if it is still there, so a
/// key copied once does not sit in the clipboard (and clipboard managers' history) for the rest of
/// the session. What the user copied since is left alone. Only a hash of the secret is kept for the
/// comparison. Parent it to something that outlives the dialog (the application): the clearing
/// must happen even when the dialog closed first. It deletes itself once done.
class SecretClipboard : public QObject
{
    Q_OBJECT
public:
    static constexpr std::chrono::milliseconds DefaultClearAfter{30'000};

    SecretClipboard(const QString &secret, std::chrono::milliseconds clearAfter, QObject *parent);

Q_SIGNALS:
    /// The time ran out: cleared is true when the secret was still there and was removed.
    void finished(bool cleared);

private:
    void clearIfUnchanged();

    QByteArray m_hash;
    QTimer m_timer;
};

} // namespace Aile::Ui
