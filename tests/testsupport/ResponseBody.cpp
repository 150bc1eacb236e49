#include "ResponseBody.h"

#include <http_parser.h>

namespace Aile::Test {

QByteArray responseBody(const QByteArray &response)
{
    QByteArray body;
    http_parser parser;
    http_parser_init(&parser, HTTP_RESPONSE);
    parser.data = &body;
    http_parser_settings settings;
    http_parser_settings_init(&settings);
    settings.on_body = [](http_parser *p, const char *at, size_t length) {
        static_cast<QByteArray *>(p->data)->append(at, qsizetype(length));
        return 0;
    };
    http_parser_execute(&parser, &settings, response.constData(), size_t(response.size()));
    return body;
}

} // namespace Aile::Test
