#pragma once

#include "Wire.h"

#include <QtCore/QByteArray>
#include <QtCore/QString>

namespace Aile::Wire {

/// An answer that names the model the client sent (auto/claude-sonnet-5) instead of the
/// upstream's id, on all three chat wires: the `model` of a body that is not streamed and of every
/// streamed event that carries one (a chat chunk, Anthropic's message_start, the Responses
/// response.* events). x-aile-model still names what served. Inactive for an empty model.
class ModelEcho
{
public:
    ModelEcho() = default;
    explicit ModelEcho(const QString &clientModel);
    bool active() const { return !m_model.isEmpty(); }

    /// One streamed event (every byte of it), with its first `model` member rewritten.
    QByteArray event(const QByteArray &raw) const;
    /// Bytes of a body that is not streamed: kept until finish() while active (its length changes).
    QByteArray body(const QByteArray &bytes);
    /// The kept body, its top-level model rewritten; empty when inactive.
    QByteArray finish();

private:
    QByteArray m_model;    // the client's id as a JSON string, quotes included
    QByteArray m_kept;
};

} // namespace Aile::Wire
