#include "ManagementClient.h"

#include "host/EngineHost.h"

#include <QtCore/QJsonObject>
#include <QtCore/QTimer>

namespace Aile::Ui {

ManagementClient::ManagementClient(EngineHost *host, QObject *parent) : QObject(parent), m_host(host)
{
    if (m_host)
        connect(m_host, &EngineHost::managementReplied, this, &ManagementClient::handleReply);
}

void ManagementClient::call(const QString &method, const QString &path, const QJsonDocument &body, QObject *context,
                            Answer answer)
{
    if (!m_host) {
        QTimer::singleShot(0, context ? context : this, [answer = std::move(answer)] { answer(0, {}); });
        return;
    }
    const QByteArray bytes = body.isNull() ? QByteArray() : body.toJson(QJsonDocument::Compact);
    const quint64 id = m_host->manage(method, path, bytes);
    m_pending.insert(id, Pending{QPointer<QObject>(context), context != nullptr, std::move(answer)});
}

void ManagementClient::handleReply(quint64 id, int status, const QByteArray &body)
{
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;   // another client's call
    const Pending pending = it.value();
    m_pending.erase(it);
    if (pending.hasContext && pending.context.isNull())
        return;
    pending.answer(status, QJsonDocument::fromJson(body));
}

QString ManagementClient::errorMessage(int status, const QJsonDocument &body)
{
    const QString message = body.object().value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString();
    if (!message.isEmpty())
        return message;
    if (status == 0)
        return tr("The proxy is not running.");
    return tr("The engine answered HTTP %1.").arg(status);
}

} // namespace Aile::Ui
