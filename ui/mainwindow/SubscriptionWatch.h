#pragma once

#include <QtCore/QHash>
#include <QtCore/QJsonArray>
#include <QtCore/QObject>
#include <QtCore/QStringList>

#include <functional>

class QTimer;

namespace Aile::Ui {

class ManagementClient;

/// Watches the subscriptions' quota windows (docs/subscriptions.md "Seeing it"): reads the
/// `GET /sharers` listing (the windows each provider reported, in routing order) every minute and
/// on demand, gives the tray its lines (each window's use and reset, where each tool's next request
/// goes), and says once: a window past 80%, a window used up (naming where traffic moved and at what
/// price), a window back after its reset.
class SubscriptionWatch : public QObject
{
    Q_OBJECT
public:
    using Notifier = std::function<void(const QString &title, const QString &message)>;
    static constexpr double WarnAt = 0.8;

    explicit SubscriptionWatch(QObject *parent = nullptr);

    void setNotifier(Notifier notifier) { m_notifier = std::move(notifier); }
    /// Where the listing is read; starts the minute timer.
    void setClient(ManagementClient *client);
    /// Reads the listing now (after a batch of traces, say).
    void refresh();

    /// A listing's rows (GET /sharers "data"), read at nowMs.
    void noteListing(const QJsonArray &rows, qint64 nowMs);
    /// The tray's lines: one per subscription ("Claude Max — 5h 42%, resets in 2 h 10 min · 7d 30%,
    /// resets in 3 d"), then where Claude Code's and Codex's next request goes.
    QStringList lines() const { return m_lines; }

Q_SIGNALS:
    void linesChanged(const QStringList &lines);
    void notified(const QString &title, const QString &message);

private:
    struct WindowState
    {
        bool warned = false;
        bool exhausted = false;
        qint64 resetMs = 0;
    };
    void say(const QString &title, const QString &message);
    /// Where a provider's next request goes: the first row of it whose windows are not used up.
    QString nextFor(const QJsonArray &rows, const QString &provider, qint64 nowMs, const QString &except = {}) const;

    ManagementClient *m_client = nullptr;
    QTimer *m_timer;
    Notifier m_notifier;
    QHash<QString, WindowState> m_windows; // handle + '\n' + window name
    QStringList m_lines;
};

/// "in 2 h 10 min", "in 3 d 4 h", "now".
QString resetsIn(qint64 resetMs, qint64 nowMs);

} // namespace Aile::Ui
