#include "SharedHealthRows.h"

#include "ChangeFeed.h"
#include "SqlDialect.h"
#include "Store.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QLoggingCategory>
#include <QtSql/QSqlDatabase>
#include <QtSql/QSqlError>
#include <QtSql/QSqlQuery>

Q_DECLARE_LOGGING_CATEGORY(lcStore)

namespace Aile::Store {

namespace {

QString text(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

bool notify(QSqlDatabase &d, const QJsonObject &verdict)
{
    QSqlQuery q(d);
    q.prepare(QStringLiteral("SELECT pg_notify(?, ?)"));
    q.addBindValue(QLatin1String(ChangeFeed::HealthChannel));
    q.addBindValue(text(verdict));
    return q.exec();
}

} // namespace

bool SharedHealthRows::publish(const QString &sharer, const QString &model, const QString &kind, qint64 untilMs, const QJsonObject &verdict)
{
    QSqlDatabase d = QSqlDatabase::database(m_store.connectionName(), false);
    const SqlDialect dialect(m_store.path());
    d.transaction();
    QSqlQuery q(d);
    q.prepare(dialect.upsert(
        QStringLiteral("shared_health"),
        {QStringLiteral("sharer"), QStringLiteral("model"), QStringLiteral("kind"), QStringLiteral("until_ms"), QStringLiteral("json")}, 3));
    // Not NULL: a verdict about the whole account has the empty model in its key.
    for (const QVariant &v : QVariantList{sharer, model.isNull() ? QString(QLatin1String("")) : model, kind, untilMs, text(verdict)})
        q.addBindValue(v);
    if (!q.exec() || (dialect.isPostgres() && !notify(d, verdict))) {
        qCWarning(lcStore) << "could not share a verdict on" << sharer << ":" << q.lastError().text();
        d.rollback();
        return false;
    }
    return d.commit();
}

bool SharedHealthRows::publishBack(const QString &sharer, const QJsonObject &verdict)
{
    QSqlDatabase d = QSqlDatabase::database(m_store.connectionName(), false);
    d.transaction();
    QSqlQuery q(d);
    q.prepare(QStringLiteral("DELETE FROM shared_health WHERE sharer = ? AND kind <> 'quota' AND kind <> 'model_off'"));
    q.addBindValue(sharer);
    if (!q.exec() || (m_store.isShared() && !notify(d, verdict))) {
        d.rollback();
        return false;
    }
    return d.commit();
}

QList<QJsonObject> SharedHealthRows::live(qint64 nowMs) const
{
    QList<QJsonObject> out;
    QSqlQuery q(QSqlDatabase::database(m_store.connectionName(), false));
    q.prepare(QStringLiteral("SELECT json FROM shared_health WHERE until_ms > ? ORDER BY until_ms"));
    q.addBindValue(nowMs);
    if (!q.exec())
        return out;
    while (q.next())
        out.append(QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object());
    return out;
}

} // namespace Aile::Store
