#pragma once

#include "api/values/EngineStatus.h"
#include "store/TraceRecord.h"

#include <QtCore/QHash>
#include <QtCore/QJsonArray>
#include <QtCore/QObject>
#include <QtCore/QSet>

#include <functional>

namespace Aile::Ui {

/// Tells the user what needs their attention, without being asked: a key or a route that reached
/// its daily budget, a sharer whose key its provider refused (a dead key), and a provider whose
/// every sharer is cooling down. It reads only what the engine already sends the window (statuses,
/// recorded traces, and today's ledger that the window reads for the spend), so it never waits on
/// the engine. Each event is said once: a budget once per key or route and UTC day, a dead key
/// until that sharer serves again, a cooling provider once per ten minutes.
class Notifications : public QObject
{
    Q_OBJECT
public:
    /// Where a notification goes: the tray icon's balloon in the app, a recorder in tests.
    using Notifier = std::function<void(const QString &title, const QString &message)>;

    explicit Notifications(QObject *parent = nullptr);

    void setNotifier(Notifier notifier) { m_notifier = std::move(notifier); }

    /// The keys (with their routing and routes) and sharers, as EngineStatus carries them.
    void noteStatus(const Aile::Api::EngineStatus &status);
    void noteTraces(const QList<Aile::Store::TraceRecord> &traces);
    /// Today's ledger (UTC day), as the window reads it for the spend.
    void noteLedger(const QString &day, const QList<Aile::Store::LedgerEntry> &entries);

Q_SIGNALS:
    void notified(const QString &title, const QString &message);

private:
    void say(const QString &id, const QString &title, const QString &message);
    void keyBudgetReached(const QString &keyId, const QString &day, double spent);
    void routeBudgetReached(const QString &keyId, const QString &route, const QString &day, double spent);
    void deadKey(const QString &handle, const QString &provider, int status);
    QString keyName(const QString &keyId) const;
    QString sharerName(const QString &handle) const;

    Notifier m_notifier;
    QList<Api::KeyInfo> m_keys;
    QHash<QString, QString> m_sharerNames;  // handle → name
    QSet<QString> m_said;                   // events already told
    QHash<QString, qint64> m_coolingSaidMs; // provider → when it was told
};

} // namespace Aile::Ui
