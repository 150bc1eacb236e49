#include "ResponseMeter.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>

#include <cmath>

namespace Aile::Wire {

qint64 Usage::promptTokens() const
{
    return qMax<qint64>(0, inputTokens) + (cacheInInput ? 0 : cacheReadTokens + cacheWriteTokens);
}

qint64 Usage::uncachedInputTokens() const
{
    const qint64 input = qMax<qint64>(0, inputTokens);
    return cacheInInput ? qMax<qint64>(0, input - cacheReadTokens - cacheWriteTokens) : input;
}

qint64 Usage::totalTokens() const
{
    return promptTokens() + qMax<qint64>(0, outputTokens);
}

void Usage::reject(const QString &why)
{
    if (rejected.isEmpty())
        rejected = why;
    inputTokens = outputTokens = -1;
    cacheReadTokens = cacheWriteTokens = 0;
}

qint64 ResponseMeter::count(const QJsonObject &o, const char *key, qint64 fallback)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (!m_usage.rejected.isEmpty())
        return -1; // one unbelievable figure and the whole report is unknown
    if (v.isUndefined() || v.isNull())
        return fallback;
    const double d = v.toDouble(-1);
    // A count is a JSON integer in [0, MaxTokens]: strings, fractions, negatives, 1e13, 1e308
    // and NaN are not usage (a double cast to qint64 past its range is undefined behaviour).
    if (!v.isDouble() || !std::isfinite(d) || d < 0 || d > double(Usage::MaxTokens) || d != std::floor(d)) {
        const QString shown = v.isDouble()
                                  ? QString::number(d, 'g', 6)
                                  : QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact)).mid(1).chopped(1).left(40);
        m_usage.reject(QStringLiteral("%1 = %2 is not a token count").arg(QLatin1String(key), shown));
        return -1;
    }
    return qint64(d);
}

void readChatReasoning(const QJsonObject &o, QStringList *out)
{
    // Chat answers carry encrypted reasoning under several names, depending on the gateway.
    for (const char *field : {"reasoning_encrypted_content", "encrypted_content", "reasoning_signature"}) {
        const QString v = o.value(QLatin1String(field)).toString();
        if (!v.isEmpty())
            out->append(v);
    }
    // reasoning_details (OpenRouter: reasoning.encrypted data, reasoning.text signatures) and
    // thinking_blocks (LiteLLM: Anthropic's thinking blocks with their signatures).
    for (const char *list : {"reasoning_details", "thinking_blocks"}) {
        for (const QJsonValue &d : o.value(QLatin1String(list)).toArray()) {
            const QJsonObject r = d.toObject();
            const QString type = r.value(QLatin1String("type")).toString();
            const QString signature = r.value(QLatin1String("signature")).toString();
            const QString data = r.value(QLatin1String("data")).toString();
            if (!signature.isEmpty())
                out->append(signature);
            else if (!data.isEmpty() && (type.contains(QLatin1String("encrypted")) || type == QLatin1String("redacted_thinking")))
                out->append(data);
        }
    }
}

ResponseMeter::ResponseMeter(Endpoint endpoint, bool streamed) : m_endpoint(endpoint), m_streamed(streamed) { }

QList<SseEvent> ResponseMeter::feedStream(const QByteArray &bytes)
{
    QList<SseEvent> events = m_sse.feed(bytes);
    for (SseEvent &ev : events)
        readEvent(ev);
    return events;
}

void ResponseMeter::feedBody(const QByteArray &bytes)
{
    if (m_bodyOverflowed)
        return;
    if (m_body.size() + bytes.size() > MaxBodyBytes) {
        m_bodyOverflowed = true;
        m_body = QByteArray(); // the memory goes back now, not when the attempt ends
        return;
    }
    m_body += bytes;
}

QString ResponseMeter::overLimit() const
{
    if (m_sse.overflowed())
        return QStringLiteral("the upstream sent an SSE event larger than %1 MiB").arg(SseParser::MaxEventBytes / (1024 * 1024));
    if (m_bodyOverflowed)
        return QStringLiteral("the upstream's answer is larger than %1 MiB").arg(MaxBodyBytes / (1024 * 1024));
    return {};
}

void ResponseMeter::finish()
{
    if (m_streamed || m_body.isEmpty() || m_bodyOverflowed)
        return;
    const QJsonObject o = QJsonDocument::fromJson(m_body).object();
    if (o.isEmpty())
        return;
    switch (m_endpoint) {
    case Endpoint::ChatCompletions:
    case Endpoint::Embeddings: readChatObject(o); break;
    case Endpoint::Responses: readResponsesObject(o); break;
    case Endpoint::Messages:
        m_model = o.value(QLatin1String("model")).toString();
        readMessagesUsage(o.value(QLatin1String("usage")).toObject());
        collectEvidence(o, 0);
        break;
    default: break;
    }
    m_sawEnd = true;
}

void ResponseMeter::readEvent(SseEvent &ev)
{
    if (ev.isComment())
        return;
    if (ev.data == "[DONE]") {
        m_sawEnd = true;
        return;
    }
    const QJsonObject o = QJsonDocument::fromJson(ev.data).object();
    const QString type = o.value(QLatin1String("type")).toString();
    if (ev.name == "error" || type == QLatin1String("error") || (m_endpoint == Endpoint::ChatCompletions && o.contains(QLatin1String("error")))) {
        m_sawError = true;
        const QJsonValue err = o.value(QLatin1String("error"));
        m_errorMessage = err.isObject() ? err.toObject().value(QLatin1String("message")).toString() : o.value(QLatin1String("message")).toString();
        return;
    }
    switch (m_endpoint) {
    case Endpoint::ChatCompletions: {
        readChatObject(o);
        const QJsonArray choices = o.value(QLatin1String("choices")).toArray();
        for (const QJsonValue &c : choices) {
            // A final finish_reason is Chat's end of answer ([DONE] may follow, or not).
            if (!c.toObject().value(QLatin1String("finish_reason")).toString().isEmpty())
                m_sawEnd = true;
            const QJsonObject delta = c.toObject().value(QLatin1String("delta")).toObject();
            for (const char *field : {"content", "tool_calls", "reasoning", "reasoning_content", "refusal"}) {
                const QJsonValue v = delta.value(QLatin1String(field));
                if ((v.isString() && !v.toString().isEmpty()) || (v.isArray() && !v.toArray().isEmpty()))
                    m_sawOutput = true;
            }
        }
        ev.usageOnly = choices.isEmpty() && o.value(QLatin1String("usage")).isObject();
        break;
    }
    case Endpoint::Responses:
        if (type == QLatin1String("response.completed") || type == QLatin1String("response.failed") || type == QLatin1String("response.incomplete")) {
            m_sawEnd = true;
            readResponsesObject(o.value(QLatin1String("response")).toObject());
        } else if (type == QLatin1String("response.created")) {
            m_model = o.value(QLatin1String("response")).toObject().value(QLatin1String("model")).toString();
        } else if (type.endsWith(QLatin1String(".delta")) || type == QLatin1String("response.output_item.added")) {
            m_sawOutput = true; // text, arguments, reasoning, or a new output item
        } else if (type == QLatin1String("response.output_item.done")) {
            collectEvidence(o.value(QLatin1String("item")).toObject(), 0);
        }
        break;
    case Endpoint::Messages:
        if (type == QLatin1String("message_start")) {
            const QJsonObject msg = o.value(QLatin1String("message")).toObject();
            m_model = msg.value(QLatin1String("model")).toString();
            readMessagesUsage(msg.value(QLatin1String("usage")).toObject());
        } else if (type == QLatin1String("message_delta")) {
            readMessagesUsage(o.value(QLatin1String("usage")).toObject());
        } else if (type == QLatin1String("message_stop")) {
            m_sawEnd = true;
        } else if (type == QLatin1String("content_block_start")) {
            collectEvidence(o.value(QLatin1String("content_block")).toObject(), 0);
            if (o.value(QLatin1String("content_block")).toObject().value(QLatin1String("type")).toString() != QLatin1String("text"))
                m_sawOutput = true; // a tool call or a thinking block has begun
        } else if (type == QLatin1String("content_block_delta")) {
            m_sawOutput = true;
            const QJsonObject delta = o.value(QLatin1String("delta")).toObject();
            if (delta.value(QLatin1String("type")).toString() == QLatin1String("signature_delta"))
                m_reasoning.append(delta.value(QLatin1String("signature")).toString());
        }
        break;
    default: break;
    }
}

void ResponseMeter::readChatObject(const QJsonObject &o)
{
    if (o.contains(QLatin1String("model")))
        m_model = o.value(QLatin1String("model")).toString();
    const QJsonObject usage = o.value(QLatin1String("usage")).toObject();
    if (!usage.isEmpty()) {
        m_usage.cacheInInput = true;
        m_usage.inputTokens = count(usage, "prompt_tokens", m_usage.inputTokens);
        m_usage.outputTokens = count(usage, "completion_tokens", m_usage.outputTokens);
        if (m_usage.outputTokens < 0 && usage.contains(QLatin1String("total_tokens")) && m_usage.rejected.isEmpty())
            m_usage.outputTokens = 0; // embeddings report prompt and total only
        m_usage.cacheReadTokens =
            qMax<qint64>(0, count(usage.value(QLatin1String("prompt_tokens_details")).toObject(), "cached_tokens", m_usage.cacheReadTokens));
    }
    for (const QJsonValue &choice : o.value(QLatin1String("choices")).toArray()) {
        const QJsonObject c = choice.toObject();
        const QJsonObject msg =
            c.contains(QLatin1String("delta")) ? c.value(QLatin1String("delta")).toObject() : c.value(QLatin1String("message")).toObject();
        for (const QJsonValue &tc : msg.value(QLatin1String("tool_calls")).toArray()) {
            const QString id = tc.toObject().value(QLatin1String("id")).toString();
            if (!id.isEmpty())
                m_toolCalls.append(id);
        }
        readChatReasoning(msg, &m_reasoning);
    }
}

void ResponseMeter::readResponsesObject(const QJsonObject &response)
{
    if (response.contains(QLatin1String("model")))
        m_model = response.value(QLatin1String("model")).toString();
    const QJsonObject usage = response.value(QLatin1String("usage")).toObject();
    if (!usage.isEmpty()) {
        m_usage.cacheInInput = true;
        m_usage.inputTokens = count(usage, "input_tokens", m_usage.inputTokens);
        m_usage.outputTokens = count(usage, "output_tokens", m_usage.outputTokens);
        m_usage.cacheReadTokens =
            qMax<qint64>(0, count(usage.value(QLatin1String("input_tokens_details")).toObject(), "cached_tokens", m_usage.cacheReadTokens));
    }
    if (!m_streamed) {
        for (const QJsonValue &item : response.value(QLatin1String("output")).toArray())
            collectEvidence(item.toObject(), 0);
    }
}

void ResponseMeter::readMessagesUsage(const QJsonObject &usage)
{
    if (usage.isEmpty())
        return;
    m_usage.inputTokens = count(usage, "input_tokens", m_usage.inputTokens);
    m_usage.outputTokens = count(usage, "output_tokens", m_usage.outputTokens);
    m_usage.cacheReadTokens = qMax<qint64>(0, count(usage, "cache_read_input_tokens", m_usage.cacheReadTokens));
    m_usage.cacheWriteTokens = qMax<qint64>(0, count(usage, "cache_creation_input_tokens", m_usage.cacheWriteTokens));
}

void ResponseMeter::collectEvidence(const QJsonObject &o, int depth)
{
    if (depth > 3)
        return;
    const QString type = o.value(QLatin1String("type")).toString();
    if (type == QLatin1String("thinking") || type == QLatin1String("redacted_thinking")) {
        const QString sig = o.value(QLatin1String("signature")).toString();
        const QString data = o.value(QLatin1String("data")).toString();
        if (!sig.isEmpty())
            m_reasoning.append(sig);
        else if (!data.isEmpty())
            m_reasoning.append(data);
    } else if (type == QLatin1String("reasoning")) {
        const QString enc = o.value(QLatin1String("encrypted_content")).toString();
        if (!enc.isEmpty())
            m_reasoning.append(enc);
    } else if (type == QLatin1String("tool_use") || type == QLatin1String("server_tool_use")) {
        const QString id = o.value(QLatin1String("id")).toString();
        if (!id.isEmpty())
            m_toolCalls.append(id);
    } else if (type == QLatin1String("function_call")) {
        const QString id = o.value(QLatin1String("call_id")).toString();
        if (!id.isEmpty())
            m_toolCalls.append(id);
    }
    for (const QJsonValue &c : o.value(QLatin1String("content")).toArray())
        collectEvidence(c.toObject(), depth + 1);
}

} // namespace Aile::Wire
