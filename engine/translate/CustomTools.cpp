#include "CustomTools.h"

#include "Common.h"

#include <QtCore/QRegularExpression>

namespace Aile::Translate {

Tool functionToolForCustom(const QJsonObject &customTool)
{
    const QJsonObject format = customTool.value(QLatin1String("format")).toObject();
    QString input = QStringLiteral("The tool's whole input, as plain text (not JSON).");
    if (str(format, "type") == QLatin1String("grammar"))
        input += QStringLiteral(" It must follow this %1 grammar:\n%2").arg(str(format, "syntax"), str(format, "definition"));
    const QJsonObject schema{{QStringLiteral("type"), QStringLiteral("object")},
                             {QStringLiteral("properties"),
                              QJsonObject{{QStringLiteral("input"),
                                           QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}, {QStringLiteral("description"), input}}}}},
                             {QStringLiteral("required"), QJsonArray{QStringLiteral("input")}}};
    return {str(customTool, "name"), str(customTool, "description"), schema, {}};
}

Part callForCustomInput(const QString &callId, const QString &name, const QString &input)
{
    return toolCallPart(callId, name, argumentsText({{QStringLiteral("input"), input}}));
}

QString customInput(const QString &arguments)
{
    return argumentsObject(arguments).value(QLatin1String("input")).toString();
}

QString CustomInputStream::feed(const QString &piece)
{
    m_json += piece;
    if (m_done)
        return {};
    if (m_at < 0) {
        static const QRegularExpression start(QStringLiteral(R"("input"\s*:\s*")"));
        const QRegularExpressionMatch m = start.match(m_json);
        if (!m.hasMatch())
            return {};
        m_at = m.capturedEnd();
    }
    QString out;
    while (m_at < m_json.size()) {
        const QChar c = m_json.at(m_at);
        if (c == QLatin1Char('"')) {
            m_done = true;
            break;
        }
        if (c != QLatin1Char('\\')) {
            out += c;
            ++m_at;
            continue;
        }
        // An escape: decoded by the JSON parser once whole (a \u pair for characters beyond the BMP).
        qsizetype length = 2;
        if (m_at + 1 < m_json.size() && m_json.at(m_at + 1) == QLatin1Char('u')) {
            length = 6;
            const bool high = m_at + 5 < m_json.size() && m_json.mid(m_at + 2, 4).toUInt(nullptr, 16) >= 0xD800
                              && m_json.mid(m_at + 2, 4).toUInt(nullptr, 16) < 0xDC00;
            if (high)
                length = 12;
        }
        if (m_at + length > m_json.size())
            break; // the rest of the escape is in the next piece
        const QString decoded =
            argumentsObject(QStringLiteral("{\"s\":\"") + m_json.mid(m_at, length) + QStringLiteral("\"}")).value(QLatin1String("s")).toString();
        out += decoded;
        m_at += length;
    }
    return out;
}

} // namespace Aile::Translate
