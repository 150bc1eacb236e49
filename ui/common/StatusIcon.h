#pragma once

#include <QtGui/QIcon>

namespace Aile::Ui {

/// The proxy's state as the window, the banner and the tray show it.
enum class ProxyState { Starting, Listening, Failed, Stopping };

/// A round badge in the state's colour (green, amber, red, grey), drawn rather than shipped so
/// that the tray and the banner need no image files and stay crisp at any size.
QIcon statusIcon(ProxyState state);

} // namespace Aile::Ui
