#include "ChangeFeed.h"

#include "SqlDialect.h"

#include <QtCore/QAtomicInteger>
#include <QtCore/QLoggingCategory>
#include <QtCore/QVariant>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlDriver>
#include <QtSql/QSqlQuery>

Q_DECLARE_LOGGING_CATEGORY(lcStore)

namespace Aile::Store {

namespace {
QAtomicInteger<quint64> g_feedSerial{0};
}

ChangeFeed::ChangeFeed(QString location, QObject *parent)
    : QObject(parent), m_location(std::move(location)), m_connection(QStringLiteral("aile-feed-%1").arg(++g_feedSerial))
{ }

ChangeFeed::~ChangeFeed()
{
    if (QSqlDatabase::contains(m_connection)) {
        {
            QSqlDatabase d = QSqlDatabase::database(m_connection, false);
            d.close();
        }
        QSqlDatabase::removeDatabase(m_connection);
    }
}

bool ChangeFeed::alive() const
{
    if (!SqlDialect(m_location).isPostgres())
        return true;
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    return q.exec(QStringLiteral("SELECT 1")) && q.next();
}

bool ChangeFeed::restart(QString *error)
{
    if (QSqlDatabase::contains(m_connection)) {
        {
            QSqlDatabase d = QSqlDatabase::database(m_connection, false);
            if (d.driver())
                d.driver()->disconnect(this);
            d.close();
        }
        QSqlDatabase::removeDatabase(m_connection);
    }
    return start(m_channels, error);
}

bool ChangeFeed::start(const QStringList &channels, QString *error)
{
    m_channels = channels;
    const SqlDialect dialect(m_location);
    if (!dialect.isPostgres())
        return true;
    if (!dialect.open(m_connection, true, error))
        return false;
    QSqlDriver *driver = QSqlDatabase::database(m_connection, false).driver();
    for (const QString &c : channels) {
        if (!driver->subscribeToNotification(c)) {
            if (error)
                *error = QStringLiteral("cannot listen to %1 on the shared store").arg(c);
            return false;
        }
    }
    connect(driver, &QSqlDriver::notification, this,
            [this](const QString &name, QSqlDriver::NotificationSource, const QVariant &payload) { Q_EMIT changed(name, payload.toString()); });
    return true;
}

} // namespace Aile::Store
