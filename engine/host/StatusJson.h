#pragma once

#include "Engine.h"

#include <QtCore/QJsonObject>

namespace Aile {

/// EngineStatus as GET /admin/status answers it, and back: a window attached to an engine over
/// HTTP reads the same status the embedded engine hands its window as a signal.
QJsonObject statusToJson(const EngineStatus &status);
EngineStatus statusFromJson(const QJsonObject &json);

} // namespace Aile
