#pragma once

#include "ManagementApi.h"

#include <QtCore/QJsonObject>

#include <functional>

namespace Aile::Api {

/// The management calls about the engine itself rather than its data, answered by whoever runs
/// it (the Engine fills the functions in):
///   GET  /admin/status    what a window shows of the engine (sharers, keys, providers, keychain),
///                         and who it is: pid, program, version, listening address
///   POST /admin/shutdown  stops the engine (and `aile serve` with it) after answering 202;
///                         how a window takes the port over from the `aile serve` it was attached to
/// Behind the admin token over HTTP like every management call; in-process for the embedded window.
struct AdminCalls
{
    std::function<QJsonObject()> status;
    std::function<void()> shutdown;

    static bool handles(const QByteArray &path) { return path == "/admin/status" || path == "/admin/shutdown"; }
    void handle(const ManagementRequest &request, const ManagementReply &reply) const;
};

} // namespace Aile::Api
