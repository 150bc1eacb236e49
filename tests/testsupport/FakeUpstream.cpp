#include "FakeUpstream.h"

#include "http/HttpConnection.h"
#include "http/HttpExchange.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtNetwork/QTcpSocket>

namespace Aile::Test {

namespace {

QByteArray json(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QByteArray dataEvent(const QJsonObject &o)
{
    return "data: " + json(o) + "\n\n";
}

// The connection under an exchange, for the bytes no well-behaved server would send.
Http::HttpConnection *connectionOf(Http::HttpExchange *exchange)
{
    return exchange->connection();
}

QByteArray namedEvent(const char *name, const QJsonObject &o)
{
    return QByteArray("event: ") + name + "\ndata: " + json(o) + "\n\n";
}

Script sse(QList<QByteArray> events)
{
    Script s;
    s.headers.add("content-type", "text/event-stream");
    for (QByteArray &e : events)
        s.events.append({std::move(e), 0});
    return s;
}

} // namespace

QByteArray FakeUpstream::credentialOf(const ReceivedRequest &r)
{
    const QByteArray auth = r.headers.value("authorization");
    return auth.startsWith("Bearer ") ? auth.mid(7) : r.headers.value("x-api-key");
}

QJsonObject ReceivedRequest::json() const
{
    return QJsonDocument::fromJson(body).object();
}

FakeUpstream::FakeUpstream(Clock *clock, QObject *parent) : QObject(parent), m_clock(clock)
{
    if (!m_clock) {
        m_ownClock = std::make_unique<SystemClock>();
        m_clock = m_ownClock.get();
    }
    m_server = new Http::HttpServer(m_clock, this, this);
}

FakeUpstream::~FakeUpstream()
{
    // Connections hold deadlines on the clock this object may own: end them first.
    delete m_server;
}

bool FakeUpstream::listen(quint16 port)
{
    return m_server->listen(QHostAddress::LocalHost, port, nullptr);
}

quint16 FakeUpstream::port() const
{
    return m_server->port();
}

QString FakeUpstream::baseUrl() const
{
    return QStringLiteral("http://127.0.0.1:%1").arg(port());
}

qint64 FakeUpstream::pendingBytes() const
{
    return m_server->pendingBytes();
}

void FakeUpstream::enqueue(const Script &script)
{
    m_scripts.append(script);
}

void FakeUpstream::handle(Http::HttpExchange *exchange)
{
    const Http::HttpRequest &r = exchange->request();
    m_received.append({r.method, r.path, r.query, r.headers, r.body});
    std::optional<Script> chosen;
    Http::HttpHeaders doorHeaders;
    const QByteArray credential = credentialOf(m_received.last());
    if (m_frontDoor)
        chosen = m_frontDoor(m_received.last(), &doorHeaders);
    if (!chosen && !m_scriptsFor.value(credential).isEmpty())
        chosen = m_scriptsFor[credential].takeFirst();
    else if (!chosen && !m_scripts.isEmpty())
        chosen = m_scripts.takeFirst();
    else if (!chosen && m_chooser)
        chosen = m_chooser(m_received.last());
    Script script = chosen ? *chosen : defaultFor(r.path, QJsonDocument::fromJson(r.body).object());
    for (const auto &[name, value] : doorHeaders.entries())
        script.headers.add(name, value);
    ++m_inFlight;
    const Http::ExchangeRef guard = exchange->ref();
    exchange->listen({.clientGone = [this] {
        ++m_disconnects;
        --m_inFlight;
        Q_EMIT clientDisconnected();
    }});
    Q_EMIT requestReceived();
    if (script.headDelayMs > 0)
        m_clock->schedule(script.headDelayMs, this, [this, guard, script] { play(guard, script); });
    else
        play(guard, script);
}

void FakeUpstream::play(Http::ExchangeRef exchange, Script script)
{
    if (!exchange || exchange->isClientGone())
        return;
    if (script.hangForever)
        return;
    if (Http::HttpConnection *connection = connectionOf(exchange); connection && (!script.interimHeads.isEmpty() || !script.raw.isEmpty())) {
        for (const QByteArray &head : script.interimHeads)
            connection->writeRaw(head);
        if (!script.raw.isEmpty()) {
            connection->writeRaw(script.raw);
            if (!script.hangAfterAnswer)
                connection->closeWhenSent(); // after the bytes: a close-delimited answer ends here
            return;
        }
    }
    if (script.closeWithoutAnswer) {
        --m_inFlight;
        exchange->abortStream();
        return;
    }
    if (script.events.isEmpty()) {
        if (!script.headers.has("content-type"))
            script.headers.add("content-type", "application/json");
        --m_inFlight;
        exchange->respond(script.status, script.headers, script.body);
        return;
    }
    if (!script.headers.has("content-type"))
        script.headers.add("content-type", "text/event-stream");
    exchange->startStream(script.status, script.headers);
    sendEvents(exchange, std::make_shared<Script>(std::move(script)), 0);
}

void FakeUpstream::sendEvents(Http::ExchangeRef exchange, std::shared_ptr<Script> script, int index)
{
    while (exchange && !exchange->isClientGone()) {
        if (index >= script->events.size()) {
            if (script->hangAfterAnswer)
                return;
            --m_inFlight;
            if (script->cutBeforeEnd)
                exchange->abortStream();
            else
                exchange->finishStream();
            return;
        }
        const ScriptedEvent &ev = script->events.at(index);
        if (ev.delayMs > 0) {
            m_clock->schedule(ev.delayMs, this, [this, exchange, script, index] {
                if (!exchange || exchange->isClientGone())
                    return;
                exchange->writeChunk(script->events.at(index).bytes);
                sendEvents(exchange, script, index + 1);
            });
            return;
        }
        exchange->writeChunk(ev.bytes);
        ++index;
    }
}

Script FakeUpstream::chatCompletion(const QString &text, int inputTokens, int outputTokens, const QString &model)
{
    Script s;
    s.headers.add("content-type", "application/json");
    s.body = json(QJsonObject{{QStringLiteral("id"), QStringLiteral("chatcmpl-fake1")},
                              {QStringLiteral("object"), QStringLiteral("chat.completion")},
                              {QStringLiteral("created"), 1767225600},
                              {QStringLiteral("model"), model},
                              {QStringLiteral("choices"),
                               QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                                      {QStringLiteral("message"), QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")},
                                                                                              {QStringLiteral("content"), text}}},
                                                      {QStringLiteral("finish_reason"), QStringLiteral("stop")}}}},
                              {QStringLiteral("usage"), QJsonObject{{QStringLiteral("prompt_tokens"), inputTokens},
                                                                    {QStringLiteral("completion_tokens"), outputTokens},
                                                                    {QStringLiteral("total_tokens"), inputTokens + outputTokens}}}});
    return s;
}

Script FakeUpstream::chatStream(const QStringList &pieces, int inputTokens, int outputTokens, const QString &model, bool withUsage)
{
    QList<QByteArray> events;
    auto chunk = [&](const QJsonObject &delta, const QJsonValue &finish) {
        return dataEvent(QJsonObject{
            {QStringLiteral("id"), QStringLiteral("chatcmpl-fake2")},
            {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")},
            {QStringLiteral("created"), 1767225600},
            {QStringLiteral("model"), model},
            {QStringLiteral("choices"),
             QJsonArray{QJsonObject{{QStringLiteral("index"), 0}, {QStringLiteral("delta"), delta}, {QStringLiteral("finish_reason"), finish}}}}});
    };
    events.append(chunk(QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")}, {QStringLiteral("content"), QString()}}, QJsonValue()));
    for (const QString &p : pieces)
        events.append(chunk(QJsonObject{{QStringLiteral("content"), p}}, QJsonValue()));
    events.append(chunk(QJsonObject{}, QStringLiteral("stop")));
    if (withUsage)
        events.append(dataEvent(QJsonObject{{QStringLiteral("id"), QStringLiteral("chatcmpl-fake2")},
                                            {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")},
                                            {QStringLiteral("created"), 1767225600},
                                            {QStringLiteral("model"), model},
                                            {QStringLiteral("choices"), QJsonArray{}},
                                            {QStringLiteral("usage"), QJsonObject{{QStringLiteral("prompt_tokens"), inputTokens},
                                                                                  {QStringLiteral("completion_tokens"), outputTokens},
                                                                                  {QStringLiteral("total_tokens"), inputTokens + outputTokens}}}}));
    events.append("data: [DONE]\n\n");
    return sse(events);
}

Script FakeUpstream::responsesAnswer(const QString &text, int inputTokens, int outputTokens, const QString &model)
{
    Script s;
    s.headers.add("content-type", "application/json");
    s.body = json(QJsonObject{
        {QStringLiteral("id"), QStringLiteral("resp_fake1")},
        {QStringLiteral("object"), QStringLiteral("response")},
        {QStringLiteral("created_at"), 1767225600},
        {QStringLiteral("status"), QStringLiteral("completed")},
        {QStringLiteral("model"), model},
        {QStringLiteral("output"),
         QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("message")},
                                {QStringLiteral("id"), QStringLiteral("msg_fake1")},
                                {QStringLiteral("status"), QStringLiteral("completed")},
                                {QStringLiteral("role"), QStringLiteral("assistant")},
                                {QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("output_text")},
                                                                                   {QStringLiteral("text"), text},
                                                                                   {QStringLiteral("annotations"), QJsonArray{}}}}}}}},
        {QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), inputTokens},
                                              {QStringLiteral("output_tokens"), outputTokens},
                                              {QStringLiteral("total_tokens"), inputTokens + outputTokens}}}});
    return s;
}

Script FakeUpstream::responsesStream(const QStringList &pieces, int inputTokens, int outputTokens, const QString &model)
{
    const QString text = pieces.join(QString());
    QJsonObject response{{QStringLiteral("id"), QStringLiteral("resp_fake2")},
                         {QStringLiteral("object"), QStringLiteral("response")},
                         {QStringLiteral("created_at"), 1767225600},
                         {QStringLiteral("status"), QStringLiteral("in_progress")},
                         {QStringLiteral("model"), model},
                         {QStringLiteral("output"), QJsonArray{}}};
    QList<QByteArray> events;
    int seq = 0;
    events.append(namedEvent("response.created", QJsonObject{{QStringLiteral("type"), QStringLiteral("response.created")},
                                                             {QStringLiteral("sequence_number"), seq++},
                                                             {QStringLiteral("response"), response}}));
    const QJsonObject item{{QStringLiteral("type"), QStringLiteral("message")},
                           {QStringLiteral("id"), QStringLiteral("msg_fake2")},
                           {QStringLiteral("status"), QStringLiteral("in_progress")},
                           {QStringLiteral("role"), QStringLiteral("assistant")},
                           {QStringLiteral("content"), QJsonArray{}}};
    events.append(namedEvent("response.output_item.added", QJsonObject{{QStringLiteral("type"), QStringLiteral("response.output_item.added")},
                                                                       {QStringLiteral("sequence_number"), seq++},
                                                                       {QStringLiteral("output_index"), 0},
                                                                       {QStringLiteral("item"), item}}));
    const QJsonObject emptyPart{
        {QStringLiteral("type"), QStringLiteral("output_text")}, {QStringLiteral("text"), QString()}, {QStringLiteral("annotations"), QJsonArray{}}};
    events.append(namedEvent("response.content_part.added", QJsonObject{{QStringLiteral("type"), QStringLiteral("response.content_part.added")},
                                                                        {QStringLiteral("sequence_number"), seq++},
                                                                        {QStringLiteral("item_id"), QStringLiteral("msg_fake2")},
                                                                        {QStringLiteral("output_index"), 0},
                                                                        {QStringLiteral("content_index"), 0},
                                                                        {QStringLiteral("part"), emptyPart}}));
    for (const QString &p : pieces)
        events.append(namedEvent("response.output_text.delta", QJsonObject{{QStringLiteral("type"), QStringLiteral("response.output_text.delta")},
                                                                           {QStringLiteral("sequence_number"), seq++},
                                                                           {QStringLiteral("item_id"), QStringLiteral("msg_fake2")},
                                                                           {QStringLiteral("output_index"), 0},
                                                                           {QStringLiteral("content_index"), 0},
                                                                           {QStringLiteral("delta"), p}}));
    QJsonObject fullPart = emptyPart;
    fullPart.insert(QStringLiteral("text"), text);
    events.append(namedEvent("response.output_text.done", QJsonObject{{QStringLiteral("type"), QStringLiteral("response.output_text.done")},
                                                                      {QStringLiteral("sequence_number"), seq++},
                                                                      {QStringLiteral("item_id"), QStringLiteral("msg_fake2")},
                                                                      {QStringLiteral("output_index"), 0},
                                                                      {QStringLiteral("content_index"), 0},
                                                                      {QStringLiteral("text"), text}}));
    events.append(namedEvent("response.content_part.done", QJsonObject{{QStringLiteral("type"), QStringLiteral("response.content_part.done")},
                                                                       {QStringLiteral("sequence_number"), seq++},
                                                                       {QStringLiteral("item_id"), QStringLiteral("msg_fake2")},
                                                                       {QStringLiteral("output_index"), 0},
                                                                       {QStringLiteral("content_index"), 0},
                                                                       {QStringLiteral("part"), fullPart}}));
    QJsonObject doneItem = item;
    doneItem.insert(QStringLiteral("status"), QStringLiteral("completed"));
    doneItem.insert(QStringLiteral("content"), QJsonArray{fullPart});
    events.append(namedEvent("response.output_item.done", QJsonObject{{QStringLiteral("type"), QStringLiteral("response.output_item.done")},
                                                                      {QStringLiteral("sequence_number"), seq++},
                                                                      {QStringLiteral("output_index"), 0},
                                                                      {QStringLiteral("item"), doneItem}}));
    QJsonObject done = response;
    done.insert(QStringLiteral("status"), QStringLiteral("completed"));
    done.insert(QStringLiteral("output"),
                QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("message")},
                                       {QStringLiteral("id"), QStringLiteral("msg_fake2")},
                                       {QStringLiteral("status"), QStringLiteral("completed")},
                                       {QStringLiteral("role"), QStringLiteral("assistant")},
                                       {QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("output_text")},
                                                                                          {QStringLiteral("text"), text},
                                                                                          {QStringLiteral("annotations"), QJsonArray{}}}}}}});
    done.insert(QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), inputTokens},
                                                     {QStringLiteral("output_tokens"), outputTokens},
                                                     {QStringLiteral("total_tokens"), inputTokens + outputTokens}});
    events.append(namedEvent("response.completed", QJsonObject{{QStringLiteral("type"), QStringLiteral("response.completed")},
                                                               {QStringLiteral("sequence_number"), seq++},
                                                               {QStringLiteral("response"), done}}));
    return sse(events);
}

Script FakeUpstream::messagesAnswer(const QString &text, int inputTokens, int outputTokens, const QString &model)
{
    Script s;
    s.headers.add("content-type", "application/json");
    s.body = json(QJsonObject{
        {QStringLiteral("id"), QStringLiteral("msg_fake1")},
        {QStringLiteral("type"), QStringLiteral("message")},
        {QStringLiteral("role"), QStringLiteral("assistant")},
        {QStringLiteral("model"), model},
        {QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), text}}}},
        {QStringLiteral("stop_reason"), QStringLiteral("end_turn")},
        {QStringLiteral("stop_sequence"), QJsonValue()},
        {QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), inputTokens}, {QStringLiteral("output_tokens"), outputTokens}}}});
    return s;
}

Script FakeUpstream::messagesStream(const QStringList &pieces, int inputTokens, int outputTokens, const QString &model)
{
    QList<QByteArray> events;
    events.append(namedEvent(
        "message_start",
        QJsonObject{{QStringLiteral("type"), QStringLiteral("message_start")},
                    {QStringLiteral("message"), QJsonObject{{QStringLiteral("id"), QStringLiteral("msg_fake2")},
                                                            {QStringLiteral("type"), QStringLiteral("message")},
                                                            {QStringLiteral("role"), QStringLiteral("assistant")},
                                                            {QStringLiteral("model"), model},
                                                            {QStringLiteral("content"), QJsonArray{}},
                                                            {QStringLiteral("stop_reason"), QJsonValue()},
                                                            {QStringLiteral("stop_sequence"), QJsonValue()},
                                                            {QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), inputTokens},
                                                                                                  {QStringLiteral("output_tokens"), 1}}}}}}));
    events.append(namedEvent("content_block_start",
                             QJsonObject{{QStringLiteral("type"), QStringLiteral("content_block_start")},
                                         {QStringLiteral("index"), 0},
                                         {QStringLiteral("content_block"),
                                          QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), QString()}}}}));
    events.append("event: ping\ndata: {\"type\": \"ping\"}\n\n");
    for (const QString &p : pieces)
        events.append(namedEvent("content_block_delta",
                                 QJsonObject{{QStringLiteral("type"), QStringLiteral("content_block_delta")},
                                             {QStringLiteral("index"), 0},
                                             {QStringLiteral("delta"),
                                              QJsonObject{{QStringLiteral("type"), QStringLiteral("text_delta")}, {QStringLiteral("text"), p}}}}));
    events.append(
        namedEvent("content_block_stop", QJsonObject{{QStringLiteral("type"), QStringLiteral("content_block_stop")}, {QStringLiteral("index"), 0}}));
    events.append(
        namedEvent("message_delta", QJsonObject{{QStringLiteral("type"), QStringLiteral("message_delta")},
                                                {QStringLiteral("delta"), QJsonObject{{QStringLiteral("stop_reason"), QStringLiteral("end_turn")},
                                                                                      {QStringLiteral("stop_sequence"), QJsonValue()}}},
                                                {QStringLiteral("usage"), QJsonObject{{QStringLiteral("output_tokens"), outputTokens}}}}));
    events.append(namedEvent("message_stop", QJsonObject{{QStringLiteral("type"), QStringLiteral("message_stop")}}));
    return sse(events);
}

Script FakeUpstream::countTokens(int inputTokens)
{
    Script s;
    s.headers.add("content-type", "application/json");
    s.body = json(QJsonObject{{QStringLiteral("input_tokens"), inputTokens}});
    return s;
}

Script FakeUpstream::error(int status, const QString &message, bool anthropic, int retryAfterSeconds)
{
    Script s;
    s.status = status;
    s.headers.add("content-type", "application/json");
    if (retryAfterSeconds >= 0)
        s.headers.add("retry-after", QByteArray::number(retryAfterSeconds));
    if (anthropic)
        s.body =
            json(QJsonObject{{QStringLiteral("type"), QStringLiteral("error")},
                             {QStringLiteral("error"),
                              QJsonObject{{QStringLiteral("type"), status == 429 ? QStringLiteral("rate_limit_error") : QStringLiteral("api_error")},
                                          {QStringLiteral("message"), message}}}});
    else
        s.body = json(QJsonObject{{QStringLiteral("error"), QJsonObject{{QStringLiteral("message"), message},
                                                                        {QStringLiteral("type"), QStringLiteral("server_error")},
                                                                        {QStringLiteral("code"), status}}}});
    return s;
}

Script FakeUpstream::rawAnswer(const QByteArray &bytes, bool thenHang)
{
    Script s;
    s.raw = bytes;
    s.hangAfterAnswer = thenHang;
    return s;
}

Script FakeUpstream::chatCompletionWithUsage(const QJsonValue &promptTokens, const QJsonValue &completionTokens, const QJsonValue &cachedTokens)
{
    Script s = chatCompletion();
    QJsonObject o = QJsonDocument::fromJson(s.body).object();
    QJsonObject usage{{QStringLiteral("prompt_tokens"), promptTokens}, {QStringLiteral("completion_tokens"), completionTokens}};
    if (!cachedTokens.isUndefined())
        usage.insert(QStringLiteral("prompt_tokens_details"), QJsonObject{{QStringLiteral("cached_tokens"), cachedTokens}});
    o.insert(QStringLiteral("usage"), usage);
    s.body = json(o);
    return s;
}

Script FakeUpstream::defaultFor(const QByteArray &path, const QJsonObject &body)
{
    const bool stream = body.value(QLatin1String("stream")).toBool();
    const QString model = body.value(QLatin1String("model")).toString();
    if (path.endsWith("/messages/count_tokens"))
        return countTokens();
    if (path.endsWith("/messages"))
        return stream ? messagesStream({QStringLiteral("Hel"), QStringLiteral("lo!")}, 12, 5, model)
                      : messagesAnswer(QStringLiteral("Hello!"), 12, 5, model);
    if (path.endsWith("/responses"))
        return stream ? responsesStream({QStringLiteral("Hel"), QStringLiteral("lo!")}, 12, 5, model)
                      : responsesAnswer(QStringLiteral("Hello!"), 12, 5, model);
    if (path.endsWith("/embeddings")) {
        Script s;
        s.headers.add("content-type", "application/json");
        s.body = json(QJsonObject{{QStringLiteral("object"), QStringLiteral("list")},
                                  {QStringLiteral("data"), QJsonArray{QJsonObject{{QStringLiteral("object"), QStringLiteral("embedding")},
                                                                                  {QStringLiteral("index"), 0},
                                                                                  {QStringLiteral("embedding"), QJsonArray{0.1, 0.2, 0.3}}}}},
                                  {QStringLiteral("model"), model},
                                  {QStringLiteral("usage"), QJsonObject{{QStringLiteral("prompt_tokens"), 8}, {QStringLiteral("total_tokens"), 8}}}});
        return s;
    }
    const bool includeUsage = body.value(QLatin1String("stream_options")).toObject().value(QLatin1String("include_usage")).toBool();
    return stream ? chatStream({QStringLiteral("Hel"), QStringLiteral("lo!")}, 12, 5, model, includeUsage)
                  : chatCompletion(QStringLiteral("Hello!"), 12, 5, model);
}

} // namespace Aile::Test
