#include "Common.h"

#include "StreamCodec.h"

#include <QtCore/QJsonDocument>

namespace Aile::Translate {

QJsonObject anthropicImageSource(const QString &url)
{
    if (url.startsWith(QLatin1String("data:"))) {
        const qsizetype comma = url.indexOf(QLatin1Char(','));
        const QString head = url.mid(5, comma - 5); // image/png;base64
        const QString mediaType = head.section(QLatin1Char(';'), 0, 0);
        return {{QStringLiteral("type"), QStringLiteral("base64")},
                {QStringLiteral("media_type"), mediaType},
                {QStringLiteral("data"), url.mid(comma + 1)}};
    }
    return {{QStringLiteral("type"), QStringLiteral("url")}, {QStringLiteral("url"), url}};
}

QString imageUrlFromAnthropic(const QJsonObject &source)
{
    if (source.value(QLatin1String("type")).toString() == QLatin1String("base64"))
        return QStringLiteral("data:%1;base64,%2")
            .arg(source.value(QLatin1String("media_type")).toString(), source.value(QLatin1String("data")).toString());
    return source.value(QLatin1String("url")).toString();
}

QString effortForBudget(qint64 budgetTokens)
{
    if (budgetTokens < 4096)
        return QStringLiteral("low");
    return budgetTokens < 16384 ? QStringLiteral("medium") : QStringLiteral("high");
}

qint64 budgetForEffort(const QString &effort)
{
    if (effort == QLatin1String("minimal") || effort == QLatin1String("low"))
        return 2048;
    return effort == QLatin1String("high") || effort == QLatin1String("xhigh") ? 24576 : 8192;
}

QJsonObject argumentsObject(const QString &text)
{
    if (text.trimmed().isEmpty())
        return {};
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
    if (doc.isObject())
        return doc.object();
    return {{QStringLiteral("_arguments"), text}};
}

QString argumentsText(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QString joinedText(const QList<Part> &parts)
{
    QStringList texts;
    for (const Part &p : parts)
        if (p.kind == Part::Kind::Text && !p.text.isEmpty())
            texts.append(p.text);
    return texts.join(QStringLiteral("\n\n"));
}

Part toolCallPart(const QString &id, const QString &name, const QString &arguments)
{
    Part p;
    p.kind = Part::Kind::ToolCall;
    p.id = id;
    p.name = name;
    p.arguments = arguments;
    return p;
}

QList<Part> readParts(const QJsonValue &content, const QString &where, Notes &notes, PartReader readPart)
{
    QList<Part> parts;
    if (content.isString()) {
        parts.append(textPart(content.toString()));
        return parts;
    }
    const QJsonArray items = content.toArray();
    for (qsizetype i = 0; i < items.size(); ++i) {
        const QJsonObject item = items.at(i).toObject();
        Part p;
        if (readPart(str(item, "type"), item, p))
            parts.append(p);
        else
            notes.refuse(where + QStringLiteral(".content[%1].type=").arg(i) + str(item, "type"));
    }
    return parts;
}

Usage readOpenAIUsage(const QJsonObject &usage, const QString &in, const QString &out)
{
    Usage u;
    const qint64 prompt = tokenCount(usage.value(in + QLatin1String("_tokens")));
    const QJsonObject inDetails = usage.value(in + QLatin1String("_tokens_details")).toObject();
    const QJsonObject outDetails = usage.value(out + QLatin1String("_tokens_details")).toObject();
    u.cacheRead = qMax<qint64>(0, tokenCount(inDetails.value(QLatin1String("cached_tokens"))));
    u.input = prompt < 0 ? -1 : qMax<qint64>(0, prompt - u.cacheRead);
    u.output = tokenCount(usage.value(out + QLatin1String("_tokens")));
    u.reasoning = qMax<qint64>(0, tokenCount(outDetails.value(QLatin1String("reasoning_tokens"))));
    return u;
}

QJsonObject writeOpenAIUsage(const Usage &u, const QString &in, const QString &out)
{
    const qint64 output = qMax<qint64>(u.output, 0);
    // Cache writes have no field here; they stay inside the prompt's count.
    return {{in + QLatin1String("_tokens"), u.prompt()},
            {in + QLatin1String("_tokens_details"), QJsonObject{{QStringLiteral("cached_tokens"), u.cacheRead}}},
            {out + QLatin1String("_tokens"), output},
            {out + QLatin1String("_tokens_details"), QJsonObject{{QStringLiteral("reasoning_tokens"), u.reasoning}}},
            {QStringLiteral("total_tokens"), u.prompt() + output}};
}

void endOpenAIRequest(QJsonObject &body, const Request &r, bool cacheMarks, Notes &notes, const Options &options)
{
    const QString cacheKey = r.promptCacheKey.isEmpty() ? options.sessionId : r.promptCacheKey;
    if (!cacheKey.isEmpty())
        body.insert(QStringLiteral("prompt_cache_key"), cacheKey);
    if (cacheMarks)
        notes.drop(QStringLiteral("cache_control (OpenAI-wire providers cache prompt prefixes on their own)"));
    if (!r.userId.isEmpty())
        notes.drop(QStringLiteral("metadata.user_id"));
}

Part textPart(const QString &text)
{
    Part p;
    p.text = text;
    return p;
}

qint64 tokenCount(const QJsonValue &value)
{
    if (!value.isDouble())
        return -1;
    const double d = value.toDouble();
    return d >= 0 && d <= 1e12 && d == qint64(d) ? qint64(d) : -1;
}

QByteArray compact(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QByteArray StreamEncoder::frame(const QByteArray &name, const QJsonObject &data)
{
    QByteArray out;
    if (!name.isEmpty())
        out += "event: " + name + '\n';
    return out + "data: " + compact(data) + "\n\n";
}

} // namespace Aile::Translate
