#include "SharedPins.h"

#include "routing/Affinity.h"
#include "store/ChangeFeed.h"
#include "store/Store.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTimer>
#include <QtCore/QUuid>

#include <utility>

namespace Aile {

namespace {

// PostgreSQL refuses a NOTIFY payload of 8000 bytes or more.
constexpr int MaxPayload = 7000;

QJsonArray encoded(const QList<QByteArray> &keys)
{
    QJsonArray out;
    for (const QByteArray &k : keys)
        if (!k.isEmpty())
            out.append(QString::fromLatin1(k.toBase64()));
    return out;
}

QList<QByteArray> decoded(const QJsonArray &keys)
{
    QList<QByteArray> out;
    for (const QJsonValue &k : keys)
        out.append(QByteArray::fromBase64(k.toString().toLatin1()));
    return out;
}

} // namespace

SharedPins::SharedPins(Store::Store &store, Routing::PinBook &pins, QObject *parent)
    : QObject(parent), m_store(store), m_pins(pins), m_origin(QUuid::createUuid().toString(QUuid::WithoutBraces))
{ }

void SharedPins::start()
{
    m_pins.setShare([this](const QList<QByteArray> &answerKeys, const QList<QByteArray> &conversationKeys, const QString &handle, qint64 ttlMs) {
        const QJsonObject pin{{QStringLiteral("h"), handle},
                              {QStringLiteral("t"), ttlMs},
                              {QStringLiteral("a"), encoded(answerKeys)},
                              {QStringLiteral("c"), encoded(conversationKeys)}};
        const int size = int(QJsonDocument(pin).toJson(QJsonDocument::Compact).size());
        if (m_pendingBytes + size > MaxPayload)
            flush();
        m_pending.append(pin);
        m_pendingBytes += size;
        if (!std::exchange(m_flushQueued, true))
            QTimer::singleShot(0, this, [this] { flush(); });
    });
}

void SharedPins::flush()
{
    m_flushQueued = false;
    if (m_pending.isEmpty())
        return;
    const QJsonObject payload{{QStringLiteral("origin"), m_origin}, {QStringLiteral("pins"), m_pending}};
    m_store.announce(QLatin1String(Store::ChangeFeed::PinsChannel), QString::fromUtf8(QJsonDocument(payload).toJson(QJsonDocument::Compact)));
    m_pending = QJsonArray();
    m_pendingBytes = 0;
}

void SharedPins::apply(const QString &payload)
{
    const QJsonObject o = QJsonDocument::fromJson(payload.toUtf8()).object();
    if (o.value(QLatin1String("origin")).toString() == m_origin)
        return;
    for (const QJsonValue &v : o.value(QLatin1String("pins")).toArray()) {
        const QJsonObject pin = v.toObject();
        m_pins.adopt(decoded(pin.value(QLatin1String("a")).toArray()), decoded(pin.value(QLatin1String("c")).toArray()),
                     pin.value(QLatin1String("h")).toString(), qint64(pin.value(QLatin1String("t")).toDouble()));
    }
}

} // namespace Aile
