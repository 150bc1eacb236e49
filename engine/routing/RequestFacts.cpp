// What routing reads of a request before it plans: the body's facts, shared by requests, dry runs
// and the sharers listing (routing/RequestPlanner.h).
#include "RequestFacts.h"

#include "http/HttpHeaders.h"
#include "keys/ApiKey.h"

namespace Aile::Routing {

const Keys::KeyRouting &RequestFacts::keyRouting() const
{
    static const Keys::KeyRouting defaults;
    return key ? key->routingSettings() : defaults;
}

QByteArray headerValue(const Http::HttpHeaders *headers, const char *name)
{
    return headers ? headers->value(QByteArray::fromRawData(name, qsizetype(qstrlen(name)))) : QByteArray();
}

bool anyAileHeader(const Http::HttpHeaders &headers)
{
    for (const Http::HttpHeaders::Entry &e : headers.entries())
        if (e.first.startsWith("x-aile-"))
            return true;
    return false;
}

QByteArray RequestFacts::header(const char *name) const
{
    if (noAileHeaders && qstrncmp(name, "x-aile-", 7) == 0)
        return {};
    return headerValue(headers, name);
}

QString RequestFacts::headerText(const char *name) const
{
    const QByteArray value = header(name);
    return value.isEmpty() ? QString() : QString::fromUtf8(value).trimmed();
}

bool RequestFacts::prefersSpeed() const
{
    if (route && route->preferSpeed)
        return *route->preferSpeed;
    return keyRouting().preferSpeed;
}

QString outputCapFieldOf(Wire::Endpoint endpoint, const QJsonObject &body)
{
    if (endpoint == Wire::Endpoint::ChatCompletions && body.contains(QLatin1String("max_completion_tokens")))
        return QStringLiteral("max_completion_tokens");
    return Wire::outputCapField(endpoint);
}

QString readBodyFacts(Wire::Endpoint endpoint, const QJsonObject &body, const QByteArray &rawBody, RequestFacts *facts)
{
    facts->promptTokens = Billing::estimatePromptTokens(rawBody);
    const QString capField = outputCapFieldOf(endpoint, body);
    // Clamped first: a cap qint64 cannot hold (1e300) has no defined conversion (UBSan,
    // fuzz_request_facts); clamped, it still quotes as the huge request it is.
    if (const QJsonValue cap = capField.isEmpty() ? QJsonValue() : body.value(capField); cap.isDouble())
        facts->maxOutputTokens = qint64(std::clamp(cap.toDouble(), -9.0e18, 9.0e18));
    facts->needs = RequestNeeds::of(endpoint, body);
    facts->stream = facts->needs.streaming; // the body's "stream", read once
    // provider.sort (docs/routing.md "Order"): "price", "latency" or "throughput", or {"by": …}.
    const QJsonValue sortValue = body.value(QLatin1String("provider")).toObject().value(QLatin1String("sort"));
    if (!sortValue.isUndefined() && !sortValue.isNull()) {
        facts->sort = sortValue.isObject() ? sortValue.toObject().value(QLatin1String("by")).toString() : sortValue.toString();
        if (facts->sort != QLatin1String("price") && facts->sort != QLatin1String("latency") && facts->sort != QLatin1String("throughput"))
            return QStringLiteral("provider.sort is \"price\", \"latency\" or \"throughput\"; leave it out for the default order");
    }
    return {};
}

} // namespace Aile::Routing
