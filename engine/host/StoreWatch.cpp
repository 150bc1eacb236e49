#include "StoreWatch.h"

#include "store/ChangeFeed.h"
#include "store/SqlDialect.h"
#include "store/Store.h"

#include <QtCore/QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcEngine)

namespace Aile {

StoreWatch::StoreWatch(Store::Store &store, Store::ChangeFeed &feed, QObject *parent) : QObject(parent), m_store(store), m_feed(feed)
{
    m_timer.setInterval(CheckEveryMs);
    connect(&m_timer, &QTimer::timeout, this, &StoreWatch::check);
}

void StoreWatch::start()
{
    m_timer.start();
}

void StoreWatch::check()
{
    if (!m_down && !m_store.unreachable() && m_feed.alive())
        return;
    if (!m_down) {
        m_down = true;
        m_store.setUnreachable(true);
        qCWarning(lcEngine).noquote() << "lost the shared store" << Store::SqlDialect::redacted(m_store.path()) << "- reconnecting";
        Q_EMIT lost();
    }
    if (m_sinceTry.isValid() && m_sinceTry.elapsed() < m_backoffMs)
        return; // the bounded backoff: 0.5, 1, 2, 4, then every 8 s
    m_sinceTry.start();
    QString error;
    const bool ok = (m_store.reachable() || m_store.reconnect(&error)) && (m_feed.alive() || m_feed.restart(&error));
    if (!ok) {
        m_backoffMs = m_backoffMs == 0 ? FirstRetryMs : qMin(m_backoffMs * 2, LongestRetryMs);
        m_timer.setInterval(qMin(CheckEveryMs, m_backoffMs));
        qCInfo(lcEngine).noquote() << error << QStringLiteral("- next try in %1 ms").arg(m_backoffMs);
        return;
    }
    m_down = false;
    m_backoffMs = 0;
    m_timer.setInterval(CheckEveryMs);
    m_store.setUnreachable(false);
    qCInfo(lcEngine).noquote() << "reconnected to the shared store" << Store::SqlDialect::redacted(m_store.path()) << "and listening again";
    Q_EMIT reconnected();
}

} // namespace Aile
