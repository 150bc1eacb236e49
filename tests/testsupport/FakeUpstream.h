#pragma once

#include "core/Clock.h"
#include "http/HttpExchange.h"
#include "http/HttpServer.h"
#include "http/HttpHeaders.h"

#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPointer>

#include <functional>
#include <memory>
#include <optional>

namespace Aile::Test {

/// One event of a scripted stream, sent after delayMs (counted from the previous one).
struct ScriptedEvent
{
    QByteArray bytes; // raw SSE bytes, e.g. "data: {...}\n\n"
    qint64 delayMs = 0;
};

/// What the fake upstream answers to one request.
struct Script
{
    int status = 200;
    Http::HttpHeaders headers;       // content-type is set from the kind of answer when absent
    QByteArray body;                 // a non-streamed answer
    QList<ScriptedEvent> events;     // a streamed answer (text/event-stream) when not empty
    qint64 headDelayMs = 0;          // wait before the response head
    bool cutBeforeEnd = false;       // close the connection after the events, without ending the body
    bool closeWithoutAnswer = false; // close the connection as soon as the request is read
    bool hangForever = false;        // send nothing, keep the connection open
    // Hostile behaviours (docs/hardening.md "Upstreams"); off by default.
    QList<QByteArray> interimHeads; // raw interim heads ("HTTP/1.1 103 Early Hints\r\n…\r\n\r\n") before the answer
    QByteArray raw;                 // when set: these bytes go to the socket as they are (head, body, anything)
                                    // instead of an answer, then the connection closes (or hangs: hangAfterAnswer)
    bool hangAfterAnswer = false;   // after the raw bytes or the last event: neither end nor close, ever
};

/// A request as the fake upstream received it.
struct ReceivedRequest
{
    QByteArray method;
    QByteArray path;
    QByteArray query;
    Http::HttpHeaders headers;
    QByteArray body;
    QJsonObject json() const;
};

/// An in-process upstream on port 0 speaking the three chat wires (Envoy's fake_upstream is the
/// model). Answers queued scripts in order, else a canned answer for the wire and stream flag.
/// Delays go through the given clock, so a ManualClock drives them in tests.
class FakeUpstream : public QObject, private Http::IRequestHandler
{
    Q_OBJECT
public:
    explicit FakeUpstream(Clock *clock = nullptr, QObject *parent = nullptr);
    ~FakeUpstream() override;

    bool listen(quint16 port = 0);
    quint16 port() const;
    QString baseUrl() const;

    void enqueue(const Script &script);
    /// Queues an answer for the next request carrying this credential (Bearer or x-api-key):
    /// how a test scripts one sharer among several on the same upstream.
    void enqueueFor(const QByteArray &credential, const Script &script) { m_scriptsFor[credential].append(script); }
    /// The credential a received request carried.
    static QByteArray credentialOf(const ReceivedRequest &request);
    /// Picks the answer when no script is queued (before the canned default).
    void setChooser(std::function<std::optional<Script>(const ReceivedRequest &)> chooser) { m_chooser = std::move(chooser); }
    /// Asked first of every request: may answer it itself (a refused login, a spent subscription
    /// window) or add headers to whatever answers it (the subscription window headers). See
    /// FakeSubscriptions.h.
    using FrontDoor = std::function<std::optional<Script>(const ReceivedRequest &, Http::HttpHeaders *extraHeaders)>;
    void setFrontDoor(FrontDoor door) { m_frontDoor = std::move(door); }
    const FrontDoor &frontDoor() const { return m_frontDoor; }
    void clearScripts() { m_scripts.clear(); }
    const QList<ReceivedRequest> &received() const { return m_received; }
    /// Requests whose client went away before the answer was complete.
    int disconnects() const { return m_disconnects; }
    int inFlight() const { return m_inFlight; }
    /// Bytes this upstream has queued to its clients that they have not read yet.
    qint64 pendingBytes() const;

    // Canned answers, as the real providers shape them.
    static Script chatCompletion(const QString &text = QStringLiteral("Hello!"), int inputTokens = 12, int outputTokens = 5,
                                 const QString &model = QStringLiteral("gpt-5.2"));
    static Script chatStream(const QStringList &pieces = {QStringLiteral("Hel"), QStringLiteral("lo!")}, int inputTokens = 12, int outputTokens = 5,
                             const QString &model = QStringLiteral("gpt-5.2"), bool withUsage = true);
    static Script responsesAnswer(const QString &text = QStringLiteral("Hello!"), int inputTokens = 12, int outputTokens = 5,
                                  const QString &model = QStringLiteral("gpt-5.5"));
    static Script responsesStream(const QStringList &pieces = {QStringLiteral("Hel"), QStringLiteral("lo!")}, int inputTokens = 12,
                                  int outputTokens = 5, const QString &model = QStringLiteral("gpt-5.5"));
    static Script messagesAnswer(const QString &text = QStringLiteral("Hello!"), int inputTokens = 12, int outputTokens = 5,
                                 const QString &model = QStringLiteral("claude-sonnet-5"));
    static Script messagesStream(const QStringList &pieces = {QStringLiteral("Hel"), QStringLiteral("lo!")}, int inputTokens = 12,
                                 int outputTokens = 5, const QString &model = QStringLiteral("claude-sonnet-5"));
    static Script countTokens(int inputTokens = 42);
    /// An error in the provider's own shape (Anthropic for /v1/messages paths when anthropic is true).
    static Script error(int status, const QString &message, bool anthropic = false, int retryAfterSeconds = -1);
    /// The default answer for a request: by path and the body's stream flag.
    static Script defaultFor(const QByteArray &path, const QJsonObject &body);

    // Hostile answers.
    /// Bytes written to the socket as they are, then a close (or a hang).
    static Script rawAnswer(const QByteArray &bytes, bool thenHang = false);
    /// A chat completion whose usage figures are the given JSON values (1e13, -5, 1.5, "12", 1e308…).
    static Script chatCompletionWithUsage(const QJsonValue &promptTokens, const QJsonValue &completionTokens,
                                          const QJsonValue &cachedTokens = QJsonValue(QJsonValue::Undefined));

Q_SIGNALS:
    void requestReceived();
    void clientDisconnected();

private:
    void handle(Http::HttpExchange *exchange) override;
    void play(Http::ExchangeRef exchange, Script script);
    void sendEvents(Http::ExchangeRef exchange, std::shared_ptr<Script> script, int index);

    Clock *m_clock;
    std::unique_ptr<SystemClock> m_ownClock;
    Http::HttpServer *m_server;
    QList<Script> m_scripts;
    QHash<QByteArray, QList<Script>> m_scriptsFor;
    std::function<std::optional<Script>(const ReceivedRequest &)> m_chooser;
    FrontDoor m_frontDoor;
    QList<ReceivedRequest> m_received;
    int m_disconnects = 0;
    int m_inFlight = 0;
};

} // namespace Aile::Test
