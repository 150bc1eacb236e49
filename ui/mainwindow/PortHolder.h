#pragma once

#include <QtCore/QString>

namespace Aile::Ui {

/// The process listening on a TCP port, as far as this user may know it: Linux lists every
/// listening socket in /proc/net/tcp{,6}, but only the user's own processes show which socket
/// they hold. "name (pid N)", or empty when it cannot be known (another user's, or not Linux).
QString processHoldingPort(quint16 port);

} // namespace Aile::Ui
