#include "SessionEvidence.h"

#include "RequestFacts.h"

#include "core/Sha256.h"
#include "http/HttpHeaders.h"
#include "wire/ResponseMeter.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>

#include <algorithm>

namespace Aile::Routing {

namespace {

constexpr qsizetype DigestBytes = 16; // SHA-256 truncated to 128 bits
constexpr char Sep = '\x1f';

QByteArray digestOf(std::initializer_list<QByteArray> parts)
{
    Sha256 h;
    for (const QByteArray &p : parts) {
        h.addData(QByteArray::number(p.size()));
        h.addData(QByteArrayView(&Sep, 1));
        h.addData(p);
    }
    return h.result().left(DigestBytes);
}

// One message of the conversation, whatever the wire: what the opening and the answer pins read.
struct Turn
{
    enum Role { System, User, Assistant, Tool };
    Role role = User;
    QString text;          // normalised content: text, tool ids, tool results
    QStringList reasoning; // encrypted reasoning / thinking signatures it carries
    QStringList toolCalls; // tool call ids it made
};

// Claude Code's first system block is a billing line whose suffix changes on every request.
QString withoutBillingLine(const QString &text)
{
    if (!text.contains(QLatin1String("x-anthropic-billing-header:")))
        return text;
    QStringList kept;
    for (const QString &line : text.split(QLatin1Char('\n')))
        if (!line.startsWith(QLatin1String("x-anthropic-billing-header:")))
            kept << line;
    return kept.join(QLatin1Char('\n'));
}

// Which of a turn's parts are read: its text only up to the conversation's first answer (what the
// opening and first-answer digests hash); the reasoning and tool calls of every turn (the answer
// pins). A long conversation's later text is not copied out of the body at all.
enum class Reading { TextAndEvidence, EvidenceOnly };

// A content value (string or array of parts/blocks) as text, plus the evidence its blocks carry.
void readContent(const QJsonValue &content, Turn &turn, Reading reading = Reading::TextAndEvidence)
{
    const bool text = reading == Reading::TextAndEvidence;
    if (content.isString()) {
        if (text)
            turn.text += content.toString();
        return;
    }
    for (const QJsonValue &v : content.toArray()) {
        const QJsonObject b = v.toObject();
        const QString type = b.value(QLatin1String("type")).toString();
        if (type == QLatin1String("text") || type == QLatin1String("input_text") || type == QLatin1String("output_text")) {
            if (text)
                turn.text += b.value(QLatin1String("text")).toString();
        } else if (type == QLatin1String("thinking")) {
            const QString sig = b.value(QLatin1String("signature")).toString();
            if (!sig.isEmpty())
                turn.reasoning << sig;
        } else if (type == QLatin1String("redacted_thinking")) {
            const QString data = b.value(QLatin1String("data")).toString();
            if (!data.isEmpty())
                turn.reasoning << data;
        } else if (type == QLatin1String("tool_use") || type == QLatin1String("server_tool_use")) {
            const QString id = b.value(QLatin1String("id")).toString();
            turn.toolCalls << id;
            if (text)
                turn.text += QStringLiteral("[tool_use %1]").arg(id);
        } else if (!text) {
            continue; // the rest is text alone
        } else if (type == QLatin1String("tool_result")) {
            turn.text += QStringLiteral("[tool_result %1]").arg(b.value(QLatin1String("tool_use_id")).toString());
            Turn inner;
            readContent(b.value(QLatin1String("content")), inner);
            turn.text += inner.text;
        } else if (!type.isEmpty()) {
            turn.text += QStringLiteral("[%1]").arg(type); // images, documents: their presence, not their bytes
        }
        if (text)
            turn.text += QChar(Sep);
    }
}

// Tells, turn after turn in order, when the first answer is behind: a user turn, then an
// assistant's (what readSessionEvidence calls firstUser and firstAnswer).
class OpeningWatch
{
public:
    Reading next() const { return m_answered ? Reading::EvidenceOnly : Reading::TextAndEvidence; }
    void saw(Turn::Role role)
    {
        if (role == Turn::User)
            m_sawUser = true;
        else if (role == Turn::Assistant && m_sawUser)
            m_answered = true;
    }

private:
    bool m_sawUser = false;
    bool m_answered = false;
};

Turn::Role roleOf(const QString &role)
{
    if (role == QLatin1String("assistant"))
        return Turn::Assistant;
    if (role == QLatin1String("system") || role == QLatin1String("developer"))
        return Turn::System;
    if (role == QLatin1String("tool") || role == QLatin1String("function"))
        return Turn::Tool;
    return Turn::User;
}

QList<Turn> chatTurns(const QJsonObject &body)
{
    QList<Turn> turns;
    OpeningWatch watch;
    for (const QJsonValue &v : body.value(QLatin1String("messages")).toArray()) {
        const QJsonObject m = v.toObject();
        Turn t;
        t.role = roleOf(m.value(QLatin1String("role")).toString());
        const Reading reading = watch.next();
        readContent(m.value(QLatin1String("content")), t, reading);
        // Only an answer's reasoning is ever read back (the answer pins), so only an answer's is looked for.
        if (t.role == Turn::Assistant)
            Wire::readChatReasoning(m, &t.reasoning);
        for (const QJsonValue &tc : m.value(QLatin1String("tool_calls")).toArray()) {
            const QString id = tc.toObject().value(QLatin1String("id")).toString();
            t.toolCalls << id;
            if (reading == Reading::TextAndEvidence)
                t.text += QStringLiteral("[tool_call %1]").arg(id);
        }
        watch.saw(t.role);
        turns.append(std::move(t));
    }
    return turns;
}

QList<Turn> messagesTurns(const QJsonObject &body)
{
    QList<Turn> turns;
    Turn system;
    system.role = Turn::System;
    const QJsonValue sys = body.value(QLatin1String("system"));
    if (sys.isString()) {
        system.text = withoutBillingLine(sys.toString());
    } else {
        for (const QJsonValue &v : sys.toArray())
            system.text += withoutBillingLine(v.toObject().value(QLatin1String("text")).toString()) + QChar(Sep);
    }
    if (!system.text.isEmpty())
        turns.append(system);
    OpeningWatch watch;
    for (const QJsonValue &v : body.value(QLatin1String("messages")).toArray()) {
        const QJsonObject m = v.toObject();
        Turn t;
        t.role = roleOf(m.value(QLatin1String("role")).toString());
        readContent(m.value(QLatin1String("content")), t, watch.next());
        watch.saw(t.role);
        turns.append(std::move(t));
    }
    return turns;
}

QList<Turn> responsesTurns(const QJsonObject &body)
{
    QList<Turn> turns;
    const QString instructions = body.value(QLatin1String("instructions")).toString();
    if (!instructions.isEmpty())
        turns.append(Turn{Turn::System, instructions, {}, {}});
    const QJsonValue input = body.value(QLatin1String("input"));
    if (input.isString()) {
        turns.append(Turn{Turn::User, input.toString(), {}, {}});
        return turns;
    }
    // The items of one answer (reasoning, function calls, the assistant's message) are one turn.
    auto assistantTurn = [&]() -> Turn & {
        if (turns.isEmpty() || turns.last().role != Turn::Assistant)
            turns.append(Turn{Turn::Assistant, {}, {}, {}});
        return turns.last();
    };
    for (const QJsonValue &v : input.toArray()) {
        const QJsonObject item = v.toObject();
        const QString type = item.value(QLatin1String("type")).toString();
        if (type == QLatin1String("reasoning")) {
            const QString enc = item.value(QLatin1String("encrypted_content")).toString();
            Turn &t = assistantTurn();
            if (!enc.isEmpty())
                t.reasoning << enc;
        } else if (type == QLatin1String("function_call") || type == QLatin1String("custom_tool_call") || type == QLatin1String("local_shell_call")) {
            const QString id = item.value(QLatin1String("call_id")).toString();
            Turn &t = assistantTurn();
            t.toolCalls << id;
            t.text += QStringLiteral("[%1 %2]").arg(type, id);
        } else if (type.endsWith(QLatin1String("_output"))) {
            turns.append(Turn{Turn::Tool, item.value(QLatin1String("call_id")).toString(), {}, {}});
        } else if (type.isEmpty() || type == QLatin1String("message")) {
            const Turn::Role role = roleOf(item.value(QLatin1String("role")).toString());
            Turn t;
            t.role = role;
            readContent(item.value(QLatin1String("content")), t);
            if (role == Turn::Assistant) {
                Turn &a = assistantTurn();
                a.text += t.text;
            } else {
                turns.append(t);
            }
        }
    }
    return turns;
}

QString headerText(const Http::HttpHeaders &headers, const char *name)
{
    const QByteArray value = headerValue(&headers, name);
    return value.isEmpty() ? QString() : QString::fromUtf8(value).trimmed();
}

// The session a request belongs to, and which header or field named it.
QString sessionOf(const Http::HttpHeaders &headers, const QJsonObject &body, QString *source)
{
    // Headers: Aile's own, Claude Code's, the Codex CLI's, OpenCode's and the generic ones.
    for (const char *name : {"x-aile-session", "x-claude-code-session-id", "session-id", "x-session-id", "x-thread-id"}) {
        const QString v = headerText(headers, name);
        if (!v.isEmpty()) {
            *source = QString::fromLatin1(name);
            return v;
        }
    }
    const QString conversationId = body.value(QLatin1String("conversation_id")).toString();
    if (!conversationId.isEmpty()) {
        *source = QStringLiteral("conversation_id");
        return conversationId;
    }
    const QJsonValue conversation = body.value(QLatin1String("conversation")); // Responses: a string or {id}
    const QString conv = conversation.isString() ? conversation.toString() : conversation.toObject().value(QLatin1String("id")).toString();
    if (!conv.isEmpty()) {
        *source = QStringLiteral("conversation");
        return conv;
    }
    // Anthropic: metadata.user_id. Claude Code puts a JSON string there whose session_id is its
    // session; anything else is taken whole.
    const QString userId = body.value(QLatin1String("metadata")).toObject().value(QLatin1String("user_id")).toString();
    if (!userId.isEmpty()) {
        *source = QStringLiteral("metadata.user_id");
        if (userId.startsWith(QLatin1Char('{'))) {
            const QString inner = QJsonDocument::fromJson(userId.toUtf8()).object().value(QLatin1String("session_id")).toString();
            if (!inner.isEmpty())
                return inner;
        }
        // Older Claude Code: "user_<hash>_account_<uuid>_session_<uuid>".
        const qsizetype at = userId.lastIndexOf(QLatin1String("_session_"));
        if (at > 0)
            return userId.mid(at + 9);
        return userId;
    }
    return {};
}

} // namespace

bool isDistinctiveToolCallId(const QString &id)
{
    if (id.size() < 12)
        return false;
    // A prefix and a counter ("call_000000000001") names nothing; random ids carry letters.
    const qsizetype cut = qMax(id.lastIndexOf(QLatin1Char('_')), id.lastIndexOf(QLatin1Char('-')));
    const QString tail = id.mid(cut + 1);
    if (tail.size() < 8)
        return false;
    return std::any_of(tail.begin(), tail.end(), [](QChar c) { return !c.isDigit(); });
}

QByteArray answerPinKey(const QString &scope, char kind, const QString &value)
{
    return digestOf({QByteArray(1, kind), scope.toUtf8(), value.toUtf8()});
}

SessionEvidence readSessionEvidence(Wire::Endpoint endpoint, const Http::HttpHeaders &headers, const QJsonObject &body, ClientKind client,
                                    const QString &scope, const QString &model)
{
    Q_UNUSED(client);
    SessionEvidence ev;
    ev.scope = scope;
    QList<Turn> turns;
    switch (endpoint) {
    case Wire::Endpoint::ChatCompletions: turns = chatTurns(body); break;
    case Wire::Endpoint::Messages: turns = messagesTurns(body); break;
    case Wire::Endpoint::Responses: turns = responsesTurns(body); break;
    default: return ev;
    }

    // The opening: the system prompt before the first user message, and that message.
    const Turn *firstUser = nullptr;
    const Turn *firstAnswer = nullptr;
    for (const Turn &t : turns) {
        if (!firstUser && t.role == Turn::User)
            firstUser = &t;
        else if (firstUser && t.role == Turn::Assistant) {
            firstAnswer = &t;
            break;
        }
    }
    // Its digest only where a pin reads it (a session, a cache key, an answer): most one-off
    // requests name none, and a SHA-256 per request was a seventh of the plan's instructions.
    QByteArray openingDigest;
    auto opening = [&]() -> const QByteArray & {
        if (openingDigest.isEmpty() && firstUser) {
            QString system;
            for (const Turn &t : turns) {
                if (&t == firstUser)
                    break;
                if (t.role == Turn::System)
                    system += t.text + QChar(Sep);
            }
            openingDigest = digestOf({system.toUtf8(), firstUser->text.toUtf8()});
        }
        return openingDigest;
    };

    // Answer pins: the latest answer that carried reasoning, the latest that called a tool.
    for (qsizetype i = turns.size() - 1; i >= 0 && ev.reasoning.isEmpty(); --i) {
        const Turn &t = turns.at(i);
        if (t.role == Turn::Assistant && !t.reasoning.isEmpty())
            ev.reasoning = answerPinKey(scope, 'r', t.reasoning.last());
    }
    for (qsizetype i = turns.size() - 1; i >= 0 && ev.toolCall.isEmpty(); --i) {
        const Turn &t = turns.at(i);
        if (t.role != Turn::Assistant)
            continue;
        for (const QString &id : t.toolCalls) {
            if (isDistinctiveToolCallId(id)) {
                ev.toolCall = answerPinKey(scope, 'u', id);
                break;
            }
        }
    }
    ev.continuing = firstAnswer != nullptr;

    // The client's thread: Codex's thread id, a Claude Code subagent's agent id.
    QString thread = headerText(headers, "x-claude-code-agent-id");
    ev.subagent = !thread.isEmpty();
    if (thread.isEmpty())
        thread = headerText(headers, "thread-id");
    const QString session = sessionOf(headers, body, &ev.sessionSource);
    const QString cacheKey = body.value(QLatin1String("prompt_cache_key")).toString();
    if (thread.isEmpty() && session.isEmpty() && cacheKey.isEmpty() && !firstAnswer)
        return ev; // nothing below names the conversation
    const QByteArray scopeBytes = scope.toUtf8();
    const QByteArray modelBytes = model.toUtf8();
    if (!session.isEmpty()) {
        const QByteArray sessionBytes = session.toUtf8();
        ev.session = digestOf({"s", scopeBytes, modelBytes, sessionBytes});
        const QByteArray seed = Sha256::hash(sessionBytes);
        quint64 s = 0;
        for (int i = 0; i < 8; ++i)
            s = (s << 8) | quint8(seed.at(i));
        ev.drawSeed = s;
    }
    if (!thread.isEmpty()) {
        ev.threadFromClient = true;
        ev.conversation = digestOf({"t", scopeBytes, modelBytes, ev.session, thread.toUtf8()});
    } else if (!session.isEmpty() && firstUser) {
        ev.conversation = digestOf({"c", scopeBytes, modelBytes, ev.session, opening()});
    }
    // prompt_cache_key labels requests that share a prefix, maybe every user of a feature: it pins
    // each conversation under it, never all of them together.
    if (!cacheKey.isEmpty() && firstUser)
        ev.cacheKey = digestOf({"p", scopeBytes, modelBytes, cacheKey.toUtf8(), opening()});
    // A conversation that names nothing: its opening and first answer, from the second turn on.
    if (firstAnswer)
        ev.opening = digestOf({"o", scopeBytes, modelBytes, opening(), firstAnswer->text.toUtf8()});
    return ev;
}

} // namespace Aile::Routing
