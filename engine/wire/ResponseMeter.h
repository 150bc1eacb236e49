#pragma once

#include "SseParser.h"
#include "Wire.h"

#include <QtCore/QJsonObject>
#include <QtCore/QString>

namespace Aile::Wire {

/// The encrypted reasoning a chat message (or a streamed delta) carries, under any of the names
/// gateways use: reasoning_encrypted_content, encrypted_content, reasoning_signature,
/// reasoning_details (OpenRouter), thinking_blocks (LiteLLM).
void readChatReasoning(const QJsonObject &message, QStringList *out);

/// Token usage as the provider reported it. -1 where it reported nothing, or where what it
/// reported could not be believed (rejected says why; docs/hardening.md "Upstreams").
struct Usage
{
    /// No figure above this is believed from any model (a count, not a context window).
    static constexpr qint64 MaxTokens = 100'000'000;
    qint64 inputTokens = -1;
    qint64 outputTokens = -1;
    qint64 cacheReadTokens = 0;
    qint64 cacheWriteTokens = 0;
    bool cacheInInput = false; // OpenAI's wires count cached tokens inside the prompt's
    QString rejected;          // why the report was not believed: every figure reads as unknown
    bool known() const { return rejected.isEmpty() && (inputTokens >= 0 || outputTokens >= 0); }
    /// Every prompt token, cached or not, counted once (the long-context band reads it).
    qint64 promptTokens() const;
    /// The prompt tokens billed at the input rate: OpenAI's wires count the cached ones inside
    /// the prompt, so they come out here and are billed once, at the cache rate.
    qint64 uncachedInputTokens() const;
    /// Every token the answer says it took, prompt and output, each counted once.
    qint64 totalTokens() const;
    /// Forgets the figures, keeping why.
    void reject(const QString &why);
};

/// Reads an answer as it is relayed: usage, whether the provider's own end event came, an error
/// event inside a 200, and the evidence session affinity needs. It never changes the bytes.
class ResponseMeter
{
public:
    /// How an answer's JSON is read: sieved from the bytes (only what the meter needs, see
    /// JsonSieve.h), or parsed whole into a QJsonDocument, the reference the sieve must agree with
    /// (test_meter_sieve and fuzz_sse_meter compare the two).
    enum class Reading { Sieved, WholeDocument };

    ResponseMeter(Endpoint endpoint, bool streamed, Reading reading = Reading::Sieved);

    /// Streamed answers: the events in these bytes, complete ones only, each to relay as is.
    QList<SseEvent> feedStream(const QByteArray &bytes);
    /// Non-streamed answers: bytes are accumulated, up to MaxBodyBytes, and read at finish().
    void feedBody(const QByteArray &bytes);
    void finish();
    /// A non-streamed answer's body may hold this much; past it the meter drops what it held.
    static constexpr qsizetype MaxBodyBytes = 32 * 1024 * 1024;
    /// The answer passed a size cap (an SSE event, or a body): why, else empty.
    QString overLimit() const;
    /// The buffered non-streamed body (the bytes the client gets once it is complete).
    QByteArray takeBody() { return std::exchange(m_body, QByteArray()); }

    const Usage &usage() const { return m_usage; }
    /// The provider's end event: [DONE], response.completed (or failed/incomplete), message_stop.
    bool sawEndEvent() const { return m_sawEnd; }
    bool sawErrorEvent() const { return m_sawError; }
    /// A streamed answer produced output: text, a tool call or reasoning (a route's first-token
    /// limit waits for this, not for the head or a message_start).
    bool sawOutput() const { return m_sawOutput; }
    QString errorMessage() const { return m_errorMessage; }
    /// The model id the provider says answered, when it says.
    QString reportedModel() const { return m_model; }
    /// Bytes of an event the stream never terminated (a cut stream's tail), handed over once.
    QByteArray takePendingStream() { return m_sse.takePending(); }
    /// Evidence for affinity: encrypted reasoning / signatures and tool call ids the answer held.
    const QStringList &reasoningTokens() const { return m_reasoning; }
    const QStringList &toolCallIds() const { return m_toolCalls; }
    /// Events a look at their bytes showed could tell the meter nothing new, so that their JSON
    /// was not parsed (EventGlance.h; the Sieved reading only). Tests and diagnostics.
    int eventsPassedOver() const { return m_passedOver; }

private:
    // Each reader is written once for both readings: Object is QJsonObject or SieveObject.
    void readEvent(SseEvent &event);
    template <class Object> void readBody(const Object &o);
    template <class Object> void readEventObject(SseEvent &event, const Object &o);
    template <class Object> void readChatObject(const Object &o);
    template <class Object> void readResponsesObject(const Object &response);
    template <class Object> void readMessagesUsage(const Object &usage);
    /// A token count from a usage object: the fallback when absent; garbage rejects the usage.
    template <class Object> qint64 count(const Object &o, const char *key, qint64 fallback);
    template <class Object> void collectEvidence(const Object &o, int depth);

    Endpoint m_endpoint;
    bool m_streamed;
    Reading m_reading;
    SseParser m_sse;
    QByteArray m_body;
    bool m_bodyOverflowed = false;
    Usage m_usage;
    bool m_sawEnd = false;
    bool m_sawError = false;
    bool m_sawOutput = false;
    QString m_errorMessage;
    QString m_model;
    QByteArray m_chatModel; // m_model in UTF-8, as a chat chunk names it (the look compares bytes)
    int m_passedOver = 0;
    QStringList m_reasoning;
    QStringList m_toolCalls;
};

} // namespace Aile::Wire
