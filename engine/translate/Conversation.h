#pragma once

#include <QtCore/QJsonObject>
#include <QtCore/QJsonValue>
#include <QtCore/QList>
#include <QtCore/QString>
#include <QtCore/QStringList>

namespace Aile::Translate {

/// The one internal shape every wire is read into and written from (docs/translation.md "Why a
/// pivot"): three readers and three writers instead of six direction pairs of each.
struct Part
{
    enum class Kind { Text, Image, ToolCall, ToolResult, Reasoning };
    Kind kind = Kind::Text;
    QString text;            // Text, Reasoning (a readable summary), ToolResult (its text)
    QString imageUrl;        // Image: an https URL or a data: URI (base64)
    QString id;              // ToolCall / ToolResult: the call id, kept as the client saw it
    QString name;            // ToolCall: the function name
    QString arguments;       // ToolCall: the arguments as a JSON text
    bool isError = false;    // ToolResult: the tool failed
    QList<Part> content;     // ToolResult: images (and text) beside the text, when the wire nests them
    QJsonValue cacheControl; // an Anthropic cache breakpoint on this part, kept for a Messages target
};

struct Turn
{
    QString role; // system, user, assistant, tool
    QList<Part> parts;
};

struct Tool
{
    QString name;
    QString description;
    QJsonObject schema;
    QJsonValue cacheControl;
};

/// A chat request, whatever wire it came on.
struct Request
{
    QString model;
    QList<Part> system;
    QList<Turn> turns;
    QList<Tool> tools;
    QString toolChoice;         // empty (not said), auto, none, required, or tool:<name>
    int parallelToolCalls = -1; // -1 not said, 0 one call at a time, 1 allowed
    qint64 maxTokens = -1;
    QJsonValue temperature;
    QJsonValue topP;
    QStringList stop;
    bool stream = false;
    QString reasoningEffort; // low, medium, high; empty when the client asked for none
    QString userId;          // Anthropic metadata.user_id / OpenAI user
    QString promptCacheKey;
    QStringList customTools; // Responses custom (freeform) tools, sent on as function tools (CustomTools.h)
};

/// Token usage, normalised: the input is the uncached part only, each figure counted once.
struct Usage
{
    qint64 input = -1;  // uncached prompt tokens
    qint64 output = -1; // output tokens, reasoning included
    qint64 cacheRead = 0;
    qint64 cacheWrite = 0;
    qint64 reasoning = 0; // of the output, the reasoning tokens (OpenAI reports them)
    bool known() const { return input >= 0 || output >= 0; }
    qint64 prompt() const { return qMax<qint64>(input, 0) + cacheRead + cacheWrite; }
};

/// Why an answer stopped, in one vocabulary: end, length, tool, stop_sequence, refusal.
struct Answer
{
    QString id;
    QString model;
    qint64 created = 0; // seconds since the epoch, when the upstream said
    QList<Part> parts;
    QString stop = QStringLiteral("end");
    QString stopSequence;
    Usage usage;
    QStringList customTools; // a call of one of these goes to a Responses client as a custom_tool_call
};

/// One step of a streamed answer, between an upstream decoder and a client encoder.
struct StreamEvent
{
    enum class Kind { Start, Text, Reasoning, ToolCall, ToolArguments, Finish, Error };
    Kind kind = Kind::Text;
    QString text; // Text, Reasoning, ToolArguments: the delta; Error: the message
    int call = 0; // ToolCall, ToolArguments: the tool call's index in this answer
    QString id;   // Start: the answer id; ToolCall: the call id
    QString name; // Start: the model; ToolCall: the function name
    QString stop; // Finish
    QString stopSequence;
    Usage usage;    // Start (what is known so far), Finish
    int status = 0; // Error
};

/// What the caller knows that no body says.
struct Options
{
    QString sessionId;                // becomes OpenAI's prompt_cache_key when the client set none
    qint64 defaultMaxTokens = 4096;   // Messages needs max_tokens; the engine's default output cap
    bool maxCompletionTokens = false; // chat: the output cap as max_completion_tokens (OpenAI's models), not max_tokens
};

/// What a reader met that the target cannot carry. A refusal is a 400 before dialling; a dropped
/// field is something the answer does not depend on (or reasoning that must not travel), recorded.
struct Notes
{
    QString refusedField; // e.g. "tools[0].type=web_search"
    QStringList dropped;
    void refuse(const QString &field)
    {
        if (refusedField.isEmpty())
            refusedField = field;
    }
    void drop(const QString &field)
    {
        if (!dropped.contains(field))
            dropped.append(field);
    }
    bool refused() const { return !refusedField.isEmpty(); }
};

} // namespace Aile::Translate
