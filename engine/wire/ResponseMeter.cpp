#include "ResponseMeter.h"

#include "EventGlance.h"
#include "JsonSieve.h"

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

namespace {

// What a QJsonValue and a SieveValue answer alike, asked in the words of each.
bool isNonEmptyString(const QJsonValue &v)
{
    return v.isString() && !v.toString().isEmpty();
}

bool isNonEmptyString(const SieveValue &v)
{
    return v.isNonEmptyString();
}

QJsonValue asQt(const QJsonValue &v)
{
    return v;
}

QJsonValue asQt(const SieveValue &v)
{
    return v.toQt();
}

template <class Object> void readReasoning(const Object &o, QStringList *out)
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
        const auto details = o.value(QLatin1String(list)).toArray();
        for (const auto &d : details) {
            const auto r = d.toObject();
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

} // namespace

template <class Object> qint64 ResponseMeter::count(const Object &o, const char *key, qint64 fallback)
{
    const auto v = o.value(QLatin1String(key));
    if (!m_usage.rejected.isEmpty())
        return -1; // one unbelievable figure and the whole report is unknown
    if (v.isUndefined() || v.isNull())
        return fallback;
    const double d = v.toDouble(-1);
    // A count is a JSON integer in [0, MaxTokens]: strings, fractions, negatives, 1e13, 1e308
    // and NaN are not usage (a double cast to qint64 past its range is undefined behaviour).
    if (!v.isDouble() || !std::isfinite(d) || d < 0 || d > double(Usage::MaxTokens) || d != std::floor(d)) {
        const QString shown = v.isDouble() ? QString::number(d, 'g', 6)
                                           : QString::fromUtf8(QJsonDocument(QJsonArray{asQt(v)}).toJson(QJsonDocument::Compact))
                                                 .mid(1)
                                                 .chopped(1)
                                                 .left(40);
        m_usage.reject(QStringLiteral("%1 = %2 is not a token count").arg(QLatin1String(key), shown));
        return -1;
    }
    return qint64(d);
}

void readChatReasoning(const QJsonObject &o, QStringList *out)
{
    readReasoning(o, out);
}

ResponseMeter::ResponseMeter(Endpoint endpoint, bool streamed, Reading reading) : m_endpoint(endpoint), m_streamed(streamed), m_reading(reading)
{
}

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
    if (m_reading == Reading::Sieved) {
        JsonSieve sieve;
        if (sieve.read(m_body)) {
            readBody(sieve.root().toObject());
            return;
        }
    }
    readBody(QJsonDocument::fromJson(m_body).object());
}

template <class Object> void ResponseMeter::readBody(const Object &o)
{
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
    if (m_reading == Reading::Sieved) {
        // Most of a long answer is text deltas that can tell the meter nothing new: a look at
        // their bytes stands in for the parse (EventGlance.h).
        if (changesNothing(m_endpoint, ev, MeterKnows{m_sawOutput, m_chatModel})) {
            ++m_passedOver;
            return;
        }
        JsonSieve sieve;
        if (sieve.read(ev.data)) {
            readEventObject(ev, sieve.root().toObject());
            return;
        }
    }
    readEventObject(ev, QJsonDocument::fromJson(ev.data).object());
}

template <class Object> void ResponseMeter::readEventObject(SseEvent &ev, const Object &o)
{
    const QString type = o.value(QLatin1String("type")).toString();
    if (ev.name == "error" || type == QLatin1String("error") || (m_endpoint == Endpoint::ChatCompletions && o.contains(QLatin1String("error")))) {
        m_sawError = true;
        const auto err = o.value(QLatin1String("error"));
        m_errorMessage = err.isObject() ? err.toObject().value(QLatin1String("message")).toString() : o.value(QLatin1String("message")).toString();
        return;
    }
    switch (m_endpoint) {
    case Endpoint::ChatCompletions: {
        readChatObject(o);
        const auto choices = o.value(QLatin1String("choices")).toArray();
        for (const auto &c : choices) {
            // A final finish_reason is Chat's end of answer ([DONE] may follow, or not).
            if (!c.toObject().value(QLatin1String("finish_reason")).toString().isEmpty())
                m_sawEnd = true;
            const auto delta = c.toObject().value(QLatin1String("delta")).toObject();
            for (const char *field : {"content", "tool_calls", "reasoning", "reasoning_content", "refusal"}) {
                const auto v = delta.value(QLatin1String(field));
                if (isNonEmptyString(v) || (v.isArray() && !v.toArray().isEmpty()))
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
            const auto msg = o.value(QLatin1String("message")).toObject();
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
            const auto delta = o.value(QLatin1String("delta")).toObject();
            if (delta.value(QLatin1String("type")).toString() == QLatin1String("signature_delta"))
                m_reasoning.append(delta.value(QLatin1String("signature")).toString());
        }
        break;
    default: break;
    }
}

template <class Object> void ResponseMeter::readChatObject(const Object &o)
{
    if (o.contains(QLatin1String("model"))) {
        const QString model = o.value(QLatin1String("model")).toString();
        if (model != m_model) {
            m_model = model;
            m_chatModel = model.toUtf8();
        }
    }
    const auto usage = o.value(QLatin1String("usage")).toObject();
    if (!usage.isEmpty()) {
        m_usage.cacheInInput = true;
        m_usage.inputTokens = count(usage, "prompt_tokens", m_usage.inputTokens);
        m_usage.outputTokens = count(usage, "completion_tokens", m_usage.outputTokens);
        if (m_usage.outputTokens < 0 && usage.contains(QLatin1String("total_tokens")) && m_usage.rejected.isEmpty())
            m_usage.outputTokens = 0; // embeddings report prompt and total only
        m_usage.cacheReadTokens =
            qMax<qint64>(0, count(usage.value(QLatin1String("prompt_tokens_details")).toObject(), "cached_tokens", m_usage.cacheReadTokens));
    }
    const auto choices = o.value(QLatin1String("choices")).toArray();
    for (const auto &choice : choices) {
        const auto c = choice.toObject();
        const auto msg =
            c.contains(QLatin1String("delta")) ? c.value(QLatin1String("delta")).toObject() : c.value(QLatin1String("message")).toObject();
        const auto toolCalls = msg.value(QLatin1String("tool_calls")).toArray();
        for (const auto &tc : toolCalls) {
            const QString id = tc.toObject().value(QLatin1String("id")).toString();
            if (!id.isEmpty())
                m_toolCalls.append(id);
        }
        readReasoning(msg, &m_reasoning);
    }
}

template <class Object> void ResponseMeter::readResponsesObject(const Object &response)
{
    if (response.contains(QLatin1String("model")))
        m_model = response.value(QLatin1String("model")).toString();
    const auto usage = response.value(QLatin1String("usage")).toObject();
    if (!usage.isEmpty()) {
        m_usage.cacheInInput = true;
        m_usage.inputTokens = count(usage, "input_tokens", m_usage.inputTokens);
        m_usage.outputTokens = count(usage, "output_tokens", m_usage.outputTokens);
        m_usage.cacheReadTokens =
            qMax<qint64>(0, count(usage.value(QLatin1String("input_tokens_details")).toObject(), "cached_tokens", m_usage.cacheReadTokens));
    }
    if (!m_streamed) {
        const auto output = response.value(QLatin1String("output")).toArray();
        for (const auto &item : output)
            collectEvidence(item.toObject(), 0);
    }
}

template <class Object> void ResponseMeter::readMessagesUsage(const Object &usage)
{
    if (usage.isEmpty())
        return;
    m_usage.inputTokens = count(usage, "input_tokens", m_usage.inputTokens);
    m_usage.outputTokens = count(usage, "output_tokens", m_usage.outputTokens);
    m_usage.cacheReadTokens = qMax<qint64>(0, count(usage, "cache_read_input_tokens", m_usage.cacheReadTokens));
    m_usage.cacheWriteTokens = qMax<qint64>(0, count(usage, "cache_creation_input_tokens", m_usage.cacheWriteTokens));
}

template <class Object> void ResponseMeter::collectEvidence(const Object &o, int depth)
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
    const auto content = o.value(QLatin1String("content")).toArray();
    for (const auto &c : content)
        collectEvidence(c.toObject(), depth + 1);
}

} // namespace Aile::Wire
