#pragma once

#include <QtCore/QHash>
#include <QtCore/QJsonDocument>
#include <QtCore/QObject>
#include <QtCore/QPointer>

#include <functional>

namespace Aile {
class EngineHost;
}

namespace Aile::Ui {

/// The management API in-process, with an answer callback per call: wraps EngineHost::manage
/// and its managementReplied signal. Never blocks; an answer whose context object is gone is
/// dropped. Without a host every call answers 0 at once ("the proxy is not running").
class ManagementClient : public QObject
{
    Q_OBJECT
public:
    using Answer = std::function<void(int status, const QJsonDocument &body)>;

    explicit ManagementClient(EngineHost *host, QObject *parent = nullptr);

    EngineHost *host() const { return m_host; }
    void call(const QString &method, const QString &path, const QJsonDocument &body, QObject *context, Answer answer);
    void call(const QString &method, const QString &path, QObject *context, Answer answer)
    {
        call(method, path, QJsonDocument(), context, std::move(answer));
    }
    int pending() const { return int(m_pending.size()); }

    /// The engine's own message of an error answer ({"error": {"message": …}}), or a generic one.
    static QString errorMessage(int status, const QJsonDocument &body);

private:
    void handleReply(quint64 id, int status, const QByteArray &body);

    struct Pending
    {
        QPointer<QObject> context;
        bool hasContext = false;
        Answer answer;
    };
    EngineHost *m_host;
    QHash<quint64, Pending> m_pending;
};

} // namespace Aile::Ui
