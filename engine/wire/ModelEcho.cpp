// auto/ answers carry the id the client sent (docs/routing.md "Naming the provider"). The rewrite
// is textual, so every other byte of the upstream's answer reaches the client as it came: only
// a JSON key can read "model" followed by a colon (a quote inside a string value is escaped).
#include "ModelEcho.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QRegularExpression>

namespace Aile::Wire {

namespace {

const QRegularExpression &modelMember()
{
    static const QRegularExpression re(QStringLiteral(R"("model"\s*:\s*"(?:[^"\\]|\\.)*")"));
    return re;
}

QByteArray rewriteFirst(const QByteArray &bytes, const QByteArray &model)
{
    if (!bytes.contains("\"model\""))
        return bytes;
    const QString text = QString::fromUtf8(bytes);
    const QRegularExpressionMatch m = modelMember().match(text);
    if (!m.hasMatch())
        return bytes;
    return text.left(m.capturedStart()).toUtf8() + "\"model\":" + model + text.mid(m.capturedEnd()).toUtf8();
}

} // namespace

ModelEcho::ModelEcho(const QString &clientModel)
{
    if (clientModel.isEmpty())
        return;
    const QByteArray array = QJsonDocument(QJsonArray{clientModel}).toJson(QJsonDocument::Compact);
    m_model = array.mid(1, array.size() - 2); // ["auto/x"] → "auto/x"
}

QByteArray ModelEcho::event(const QByteArray &raw) const
{
    return active() ? rewriteFirst(raw, m_model) : raw;
}

QByteArray ModelEcho::body(const QByteArray &whole) const
{
    if (!active())
        return whole;
    // Only a body whose own model is there is rewritten (an error body or a bare list is not).
    const QJsonDocument doc = QJsonDocument::fromJson(whole);
    if (!doc.isObject() || !doc.object().value(QLatin1String("model")).isString())
        return whole;
    return rewriteFirst(whole, m_model);
}

} // namespace Aile::Wire
