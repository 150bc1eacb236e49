#pragma once

#include "wire/Wire.h"

#include <QtCore/QByteArray>
#include <QtCore/QJsonObject>
#include <QtCore/QStringList>

#include <optional>

namespace Aile {
namespace Routing {
struct Candidate;
struct Target;
} // namespace Routing

namespace Dispatch {

/// The body a request sends upstream for its current target, and what it asked for that the relay
/// reads back in the answer. Built once per target and model sent: failover to another sharer of
/// the same target sends the same bytes.
struct SentBody
{
    QByteArray bytes;
    bool injectedUsage = false;    // it asks for a usage chunk the client did not: read, not relayed
    QStringList dropped;           // what it left out: what its wire cannot carry, reasoning its provider cannot verify
    bool clientWantsUsage = false; // a translated chat client's stream_options.include_usage
    QStringList customTools;       // a translated Responses client's custom tools (apply_patch)

    /// A body a translation still cannot carry: answered 400 before anything is dialled.
    struct Refusal
    {
        QString message;
        QJsonObject extra;
    };
    /// Builds the body of clientBody (on the client's wire endpoint) for target as sent to
    /// candidate, unless it is built for them already; session seeds a translation's ids.
    /// clientBytes: the bytes clientBody was parsed from, when it is exactly that (rewriteBody
    /// then splices the model into them); empty when the planner changed the body.
    std::optional<Refusal> build(Wire::Endpoint endpoint, const QJsonObject &clientBody, const QByteArray &clientBytes, const Routing::Target &target,
                                 const Routing::Candidate &candidate, const QString &session);

private:
    QString m_builtFor; // the target label and model the bytes were built for
};

} // namespace Dispatch
} // namespace Aile
