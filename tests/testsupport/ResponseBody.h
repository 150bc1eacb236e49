#pragma once

#include <QtCore/QByteArray>

namespace Aile::Test {

/// The body of an HTTP/1.1 response as the client sees it (chunk framing removed), read with
/// http-parser, the parser the engine uses; the response's bytes so far, head included. Bytes that
/// are not HTTP end the reading: what was read until then is returned.
QByteArray responseBody(const QByteArray &response);

} // namespace Aile::Test
