#pragma once

#include "ClientKind.h"
#include "wire/Wire.h"

#include <QtCore/QByteArray>
#include <QtCore/QJsonObject>
#include <QtCore/QStringList>

#include <optional>

namespace Aile::Routing {

/// What a request says about the conversation it belongs to (SPEC §10), as pin keys: each is a
/// truncated SHA-256 of the key's scope and the client's value, so only digests are ever kept.
/// Empty where the request carries no such evidence. Closest first:
struct SessionEvidence
{
    QByteArray reasoning;    // the latest answer's encrypted reasoning, sent back by the client
    QByteArray toolCall;     // the first distinctive tool call id of the latest answer that called one
    QByteArray conversation; // the conversation inside its session: the client's thread id, else its opening
    QByteArray session;      // where the session last was (a new conversation starts there)
    QByteArray cacheKey;     // prompt_cache_key together with the conversation's opening
    QByteArray opening;      // the opening messages and first answer (from the second turn on)

    QString scope;                   // the API key the pins belong to
    QString sessionSource;           // the header or field that named the session, for the trace
    bool threadFromClient = false;   // the conversation is named by the client's own thread id
    bool subagent = false;           // a Claude Code subagent (x-claude-code-agent-id)
    bool continuing = false;         // the request carries earlier answers
    std::optional<quint64> drawSeed; // a session's stable tie draw

    bool hasConversationEvidence() const
    {
        return !reasoning.isEmpty() || !toolCall.isEmpty() || !conversation.isEmpty() || !session.isEmpty() || !cacheKey.isEmpty()
               || !opening.isEmpty();
    }
};

/// Reads the evidence of a request on any wire (chat completions, Anthropic messages,
/// Responses): headers of Claude Code, the Codex CLI, OpenCode and the generic ones, and the body.
/// model scopes the conversation pins (a background call on another model keeps its own).
SessionEvidence readSessionEvidence(Wire::Endpoint endpoint, const Http::HttpHeaders &headers, const QJsonObject &body, ClientKind client,
                                    const QString &scope, const QString &model);

/// The pin key of an answer's encrypted reasoning or tool call id, as the next turn will send it back.
QByteArray answerPinKey(const QString &scope, char kind, const QString &value);

/// A tool call id that names one answer: long enough and not a counter ("call_0", "toolu_1").
/// Ids a gateway mints from a counter would pin unrelated conversations together.
bool isDistinctiveToolCallId(const QString &id);

} // namespace Aile::Routing
