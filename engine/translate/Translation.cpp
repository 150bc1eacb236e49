#include "Translation.h"

#include "ChatStream.h"
#include "ChatWire.h"
#include "Common.h"
#include "MessagesStream.h"
#include "MessagesWire.h"
#include "ResponsesStream.h"
#include "ResponsesWire.h"
#include "StreamCodec.h"

#include <QtCore/QJsonDocument>

namespace Aile::Translate {

using Wire::Endpoint;

namespace {

bool isTranslatable(Endpoint e)
{
    return e == Endpoint::Messages || e == Endpoint::ChatCompletions || e == Endpoint::Responses;
}

Request readRequest(Endpoint e, const QJsonObject &body, Notes &notes)
{
    switch (e) {
    case Endpoint::Messages: return Messages::readRequest(body, notes);
    case Endpoint::ChatCompletions: return Chat::readRequest(body, notes);
    default: return Responses::readRequest(body, notes);
    }
}

QJsonObject writeRequest(Endpoint e, const Request &r, Notes &notes, const Options &options)
{
    switch (e) {
    case Endpoint::Messages: return Messages::writeRequest(r, notes, options);
    case Endpoint::ChatCompletions: return Chat::writeRequest(r, notes, options);
    default: return Responses::writeRequest(r, notes, options);
    }
}

Answer readAnswer(Endpoint e, const QJsonObject &body, Notes &notes)
{
    switch (e) {
    case Endpoint::Messages: return Messages::readAnswer(body, notes);
    case Endpoint::ChatCompletions: return Chat::readAnswer(body, notes);
    default: return Responses::readAnswer(body, notes);
    }
}

QJsonObject writeAnswer(Endpoint e, const Answer &a, Notes &notes)
{
    switch (e) {
    case Endpoint::Messages: return Messages::writeAnswer(a, notes);
    case Endpoint::ChatCompletions: return Chat::writeAnswer(a, notes);
    default: return Responses::writeAnswer(a, notes);
    }
}

// The field's name with its value, e.g. "tools[0].type=web_search", read back apart for the message.
QString refusalMessage(Endpoint client, Endpoint upstream, const QString &field)
{
    return QStringLiteral("The request's %1 cannot be translated from the %2 wire to the %3 wire this target speaks, "
                          "and leaving it out would change the answer. Remove it, or route this request to a "
                          "provider that speaks the %2 wire.")
        .arg(field, Wire::wireName(client), Wire::wireName(upstream));
}

} // namespace

QString label(Endpoint client, Endpoint upstream)
{
    return Wire::wireName(client) + QStringLiteral("->") + Wire::wireName(upstream);
}

bool canTranslate(Endpoint client, Endpoint upstream)
{
    return client != upstream && isTranslatable(client) && isTranslatable(upstream);
}

RequestTranslation translateRequest(Endpoint client, Endpoint upstream, const QByteArray &body, const Options &options)
{
    RequestTranslation t;
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    Notes notes;
    if (!canTranslate(client, upstream)) {
        notes.refuse(QStringLiteral("endpoint"));
    } else if (!doc.isObject()) {
        notes.refuse(QStringLiteral("body (not a JSON object)"));
    } else {
        const QJsonObject in = doc.object();
        const Request request = readRequest(client, in, notes);
        t.stream = request.stream;
        t.customTools = request.customTools;
        t.clientWantsUsage = in.value(QLatin1String("stream_options")).toObject().value(QLatin1String("include_usage")).toBool();
        const QJsonObject out = writeRequest(upstream, request, notes, options);
        if (!notes.refused())
            t.body = compact(out);
    }
    t.dropped = notes.dropped;
    t.refusedField = notes.refusedField;
    if (notes.refused())
        t.refusal = refusalMessage(client, upstream, notes.refusedField);
    return t;
}

QByteArray refusalBody(Endpoint client, const RequestTranslation &translation)
{
    return Wire::errorBody(Wire::errorShapeFor(client), 400, translation.refusal, {{QStringLiteral("param"), translation.refusedField}});
}

AnswerTranslation translateAnswer(Endpoint client, Endpoint upstream, const QByteArray &body, const QStringList &customTools)
{
    AnswerTranslation t;
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (!canTranslate(client, upstream) || !doc.isObject() || doc.object().contains(QLatin1String("error"))) {
        t.ok = false;
        t.body = translateError(client, upstream, 502, body);
        return t;
    }
    Notes notes;
    Answer answer = readAnswer(upstream, doc.object(), notes);
    answer.customTools = customTools;
    t.body = compact(writeAnswer(client, answer, notes));
    t.dropped = notes.dropped;
    return t;
}

QByteArray translateError(Endpoint client, Endpoint upstream, int status, const QByteArray &body)
{
    const QJsonObject error = QJsonDocument::fromJson(body).object().value(QLatin1String("error")).toObject();
    QString message = error.value(QLatin1String("message")).toString();
    if (message.isEmpty())
        message =
            QStringLiteral("The %1 provider answered %2 without an error message it is possible to read.").arg(Wire::wireName(upstream)).arg(status);
    // The type names differ between the two shapes; the client's own type for the status reads right.
    return Wire::errorBody(Wire::errorShapeFor(client), status, message);
}

StreamTranslator::StreamTranslator(Endpoint client, Endpoint upstream, bool clientWantsUsage, const QStringList &customTools)
{
    switch (upstream) {
    case Endpoint::Messages: m_decoder = Messages::decoder(); break;
    case Endpoint::ChatCompletions: m_decoder = Chat::decoder(); break;
    default: m_decoder = Responses::decoder(); break;
    }
    switch (client) {
    case Endpoint::Messages: m_encoder = Messages::encoder(); break;
    case Endpoint::ChatCompletions: m_encoder = Chat::encoder(clientWantsUsage); break;
    default: m_encoder = Responses::encoder(); break;
    }
    m_encoder->customTools = customTools;
}

StreamTranslator::~StreamTranslator() = default;

QByteArray StreamTranslator::feed(const Wire::SseEvent &event)
{
    if (event.isComment() || m_encoder->finished())
        return {};
    QByteArray out;
    for (const StreamEvent &e : m_decoder->decode(event))
        if (!m_encoder->finished())
            out += m_encoder->encode(e);
    return out;
}

bool StreamTranslator::finished() const
{
    return m_encoder->finished();
}

QStringList StreamTranslator::dropped() const
{
    QStringList all = m_decoder->notes.dropped;
    for (const QString &d : m_encoder->notes.dropped)
        if (!all.contains(d))
            all.append(d);
    return all;
}

} // namespace Aile::Translate
