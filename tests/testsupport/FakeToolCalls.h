#pragma once

#include "FakeUpstream.h"

namespace Aile::Test {

/// One tool call as a provider answers it on its own wire: a chat completion's tool_calls, a
/// Messages tool_use block, a Responses function_call item; streamed as each streams its
/// arguments (in two pieces) or whole. path picks the wire as FakeUpstream::defaultFor does.
struct FakeToolCall
{
    QString id = QStringLiteral("call_fake_1");
    QString name = QStringLiteral("read_file");
    QString arguments = QStringLiteral("{\"path\":\"notes.txt\"}");
};
Script toolCallAnswer(const QByteArray &path, bool stream, const QString &model, const FakeToolCall &call = {});

/// A tool-using turn for the real CLIs (aile-fake-upstream): a request whose prompt says
/// "[fake-tool-call] read <absolute path>" is answered with a call of the file-reading tool it
/// offers (Claude Code's Read, Codex's shell tools, read_file), in its wire; the request that carries
/// the tool's result is answered "The file says: <the SECRET-… word the result holds>". Other
/// requests: nullopt (the canned answers).
std::optional<Script> fileReadingTurn(const ReceivedRequest &request);

} // namespace Aile::Test
