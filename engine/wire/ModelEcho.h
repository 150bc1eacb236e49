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
    /// A whole body that is not streamed (the relay holds it until complete), its top-level model
    /// rewritten; an error body or one without a model of its own comes back as it is.
    QByteArray body(const QByteArray &whole) const;

private:
    QByteArray m_model; // the client's id as a JSON string, quotes included
};

} // namespace Aile::Wire
