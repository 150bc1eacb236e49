// The trace and ledger of one proxied request: how its trace starts, the rows of what was passed
// over, and the booking of the served attempt (docs/architecture.md step 5).
#include "RequestTrace.h"

#include "Attempt.h"
#include "DispatchServices.h"

#include "billing/Charge.h"
#include "billing/PlanValue.h"
#include "billing/SpendBook.h"
#include "catalog/Catalog.h"
#include "http/HttpExchange.h"
#include "keys/ApiKey.h"
#include "routing/Plan.h"
#include "store/TraceSink.h"

#include <QtCore/QRandomGenerator>

#include <charconv>

namespace Aile::Dispatch {

namespace {

// The start time first (milliseconds, 12 hex digits), then 48 random bits: ids sort by when their
// requests began, so the store's index on them grows at its end instead of taking a random page per
// request (docs/performance.md, "Change 9"). Requests of one millisecond differ in their random part.
QString newTraceId(qint64 nowMs)
{
    const quint64 random = QRandomGenerator::global()->generate64() & 0xffff'ffff'ffffULL;
    // Written in place: one allocation, where number, rightJustified and two concatenations took five.
    QString id(4 + 12 + 12, Qt::Uninitialized);
    QChar *at = id.data();
    for (const char c : {'r', 'e', 'q', '_'})
        *at++ = QLatin1Char(c);
    const auto hex12 = [&at](quint64 v) {
        for (int shift = 44; shift >= 0; shift -= 4)
            *at++ = QLatin1Char("0123456789abcdef"[(v >> shift) & 0xf]);
    };
    hex12(quint64(nowMs) & 0xffff'ffff'ffffULL);
    hex12(random);
    return id;
}

// The inverse of priceLabel: a node's x-aile-price ($ per million tokens, input/output), or
// nothing when it names no usable price.
std::optional<Billing::Rates> ratesFromPriceLabel(const QString &label)
{
    const QStringList parts = label.split(QLatin1Char('/'));
    if (parts.size() != 2)
        return std::nullopt;
    bool inOk = false;
    bool outOk = false;
    const double in = parts[0].toDouble(&inOk);
    const double out = parts[1].toDouble(&outOk);
    if (!inOk || !outOk || !(in >= 0 && in < 1e6) || !(out >= 0 && out < 1e6))
        return std::nullopt;
    Billing::Rates r;
    r.input = in;
    r.output = out;
    r.cacheRead = in;
    r.cacheWrite = in;
    return r;
}

} // namespace

QString priceLabel(const std::optional<Billing::Rates> &rates)
{
    if (!rates)
        return QStringLiteral("unpriced");
    // Every answer carries it (x-aile-price): formatted on the stack, where two QString::arg calls
    // cost ~6,000 instructions per request (docs/performance.md "Change 13 (record)").
    char text[2 * 330 + 1]; // the longest doubles in fixed notation with four decimals, and the slash
    char *at = text;
    const auto put = [&at, &text](double v) {
        // + 0.0: a negative zero reads "0.0000", as Qt writes it.
        at = std::to_chars(at, text + sizeof text, v + 0.0, std::chars_format::fixed, 4).ptr;
    };
    put(rates->input);
    *at++ = '/';
    put(rates->output);
    return QString::fromLatin1(text, at - text);
}

Store::TraceRecord baseTrace(const Http::HttpExchange *exchange, const Keys::ApiKey &key, Routing::ClientKind client, const QString &modelAsked,
                             qint64 now)
{
    Store::TraceRecord t;
    t.id = newTraceId(now);
    t.startedMs = now;
    t.keyId = key.id;
    t.keyName = key.name;
    t.client = Routing::clientName(client);
    t.endpoint = QString::fromLatin1(exchange->request().path);
    t.modelAsked = modelAsked;
    t.affinity = QStringLiteral("fresh");
    return t;
}

void recordRefusedRequest(const DispatchServices &services, const Http::HttpExchange *exchange, const Keys::ApiKey &key, Routing::ClientKind client,
                          int status, const QString &message)
{
    Store::TraceRecord t = baseTrace(exchange, key, client, QString(), services.clock.nowMs());
    t.status = status;
    t.error = message;
    if (services.traces)
        services.traces->add(std::move(t), {}); // handed over: the sink keeps one copy, not two
}

Store::AttemptRecord refusedRow(const Routing::Plan &plan, const Routing::Target &target, int seq, const QString &reason, const QString &skip,
                                qint64 nowMs)
{
    Store::AttemptRecord a;
    a.seq = seq;
    a.provider = target.provider;
    a.model = target.model;
    a.target = plan.labelsTargets() ? target.label() : QString();
    a.outcome = QStringLiteral("refused");
    a.reason = reason;
    a.skip = skip;
    a.startedMs = nowMs;
    a.dispatched = false;
    return a;
}

QList<Store::LedgerEntry> bookServed(const DispatchServices &services, const Routing::Plan &plan, Wire::Endpoint endpoint, const Keys::ApiKey &key,
                                     const Attempt &a, Store::TraceRecord &trace, qint64 nowMs)
{
    QList<Store::LedgerEntry> ledger;
    const Routing::Target &t = plan.targets.at(a.targetIndex());
    const Routing::Candidate &c = a.candidate();
    trace.inputTokens = a.row.inputTokens;
    trace.outputTokens = a.row.outputTokens;
    if (!Billing::isCharged(a.row.status, endpoint))
        return ledger;
    const Catalog::Sharer *sharer = services.sharer(c.handle);
    const Catalog::ModelInfo *model = services.catalog.model(c.provider, c.upstreamModel);
    // Through a node: at the price its answer named (its x-aile-price), as its own ledger books it.
    const std::optional<Billing::Rates> nodeRates = c.node ? ratesFromPriceLabel(a.row.nodePrice) : std::nullopt;
    if (c.node)
        sharer = nullptr;
    Billing::Charge charge =
        Billing::chargeFor(a.usage, sharer, model, c.upstreamModel, nodeRates ? nodeRates : c.rates, c.quoteUsd, plan.costCapFor(t));
    Billing::valueOnPlan(charge, a.usage, sharer, model, c.upstreamModel, c.quoteUsd); // a subscription spends nothing
    trace.costUsd = charge.costUsd;
    trace.absorbedUsd = charge.absorbedUsd;
    ledger.append(Billing::book(services.spend, {trace.id, key.id, t.route, t.spendKey(), c.handle}, charge, nowMs));
    return ledger;
}

} // namespace Aile::Dispatch
