#include "Verifier.h"

#include "health/HealthBook.h"
#include "core/Clock.h"
#include "core/EngineSettings.h"
#include "state/SharerBook.h"
#include "dispatch/UpstreamRequestBuilder.h"
#include "http/UpstreamClient.h"
#include "store/Store.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <algorithm>

namespace Aile::Dispatch {

namespace {

// The first wire a provider speaks, and a minimal body for it.
std::pair<Wire::Endpoint, QJsonObject> minimalRequest(const Catalog::ProviderInfo *p, const QString &model)
{
    const QJsonArray ping{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), QStringLiteral("ping")}}};
    if (p && p->speaks(QStringLiteral("messages")))
        return {Wire::Endpoint::Messages,
                QJsonObject{{QStringLiteral("model"), model}, {QStringLiteral("max_tokens"), 1}, {QStringLiteral("messages"), ping}}};
    if (p && !p->speaks(QStringLiteral("chat")) && p->speaks(QStringLiteral("responses")))
        return {Wire::Endpoint::Responses, QJsonObject{{QStringLiteral("model"), model},
                                                       {QStringLiteral("input"), QStringLiteral("ping")},
                                                       {QStringLiteral("max_output_tokens"), 16},
                                                       {QStringLiteral("store"), false}}};
    return {Wire::Endpoint::ChatCompletions,
            QJsonObject{{QStringLiteral("model"), model}, {QStringLiteral("max_tokens"), 1}, {QStringLiteral("messages"), ping}}};
}

} // namespace

/// A probe or model test in flight: its call, and the deadline that bounds it from the connection up.
struct Verifier::Check
{
    std::unique_ptr<Http::UpstreamCall> call;
    Deadline deadline;
};

Verifier::Verifier(Clock &clock, const EngineSettings &settings, State::SharerBook &sharers, Http::UpstreamClient &upstream,
                   Health::HealthBook *health, Store::Store *store, QObject *parent)
    : QObject(parent), m_clock(clock), m_settings(settings), m_book(sharers), m_upstream(upstream), m_health(health), m_store(store)
{ }

Verifier::~Verifier() = default; // each check's call is aborted as it goes: nobody is told

void Verifier::launch(const Http::UpstreamRequest &request, Http::UpstreamCallbacks callbacks, qint64 ms, std::function<void()> onTimeout)
{
    auto owned = std::make_unique<Check>();
    Check *check = owned.get();
    auto finished = std::move(callbacks.finished);
    auto failed = std::move(callbacks.failed);
    callbacks.finished = [this, check, finished](const Http::UpstreamCall &call) {
        finished(call);
        end(check); // deletes the call: this function runs from a copy of its own
    };
    callbacks.failed = [this, check, failed](Http::UpstreamError error, const QString &detail) {
        end(check);
        failed(error, detail);
    };
    callbacks.connected = [this, check, ms, onTimeout] {
        check->deadline.start(&m_clock, ms, this, [this, check, onTimeout] {
            end(check); // deleted unfinished: aborted, no finished or failed follows
            onTimeout();
        });
    };
    check->call = m_upstream.send(request, std::move(callbacks));
    m_checks.push_back(std::move(owned));
}

void Verifier::end(Check *check)
{
    const auto it = std::find_if(m_checks.begin(), m_checks.end(), [check](const std::unique_ptr<Check> &c) { return c.get() == check; });
    if (it != m_checks.end())
        m_checks.erase(it);
}

void Verifier::testModel(const QString &handle, const QString &model, Done done)
{
    const Catalog::Sharer *sharer = m_book.sharer(handle);
    if (!sharer) {
        done(QJsonObject{
            {QStringLiteral("ok"), false}, {QStringLiteral("status"), 404}, {QStringLiteral("message"), QStringLiteral("no sharer %1").arg(handle)}});
        return;
    }
    if (!m_book.credentials.contains(sharer->handle)) {
        const QString why = sharer->usesClientLogin()
                                ? QStringLiteral("this sharer uses the requesting tool's own subscription login, which only that tool's "
                                                 "requests carry: test it by sending a request from the tool")
                                : QStringLiteral("no credential: %1").arg(m_book.credentialErrors.value(sharer->handle));
        done(QJsonObject{{QStringLiteral("ok"), false}, {QStringLiteral("status"), 0}, {QStringLiteral("message"), why}});
        return;
    }
    const auto [endpoint, body] = minimalRequest(m_book.catalog.provider(sharer->provider), model);
    Http::HttpRequest inbound;
    inbound.path = Wire::pathOf(endpoint);
    const Http::UpstreamRequest request = Dispatch::buildUpstreamRequest({m_book.catalog, m_settings.connectTimeoutMs, m_book.credentials}, *sharer,
                                                                         endpoint, inbound, QJsonDocument(body).toJson(QJsonDocument::Compact));
    const qint64 started = m_clock.nowMs();
    auto body_ = std::make_shared<QByteArray>();
    const QString h = sharer->handle;
    Http::UpstreamCallbacks callbacks;
    callbacks.body = [body_](const QByteArray &b) {
        if (body_->size() < 4096)
            *body_ += b;
    };
    callbacks.finished = [this, h, model, started, body_, done](const Http::UpstreamCall &call) {
        const int status = call.status();
        const bool ok = status >= 200 && status < 300;
        if (ok) {
            if (Catalog::Sharer *s = m_book.sharer(h)) {
                if (!s->tested.contains(model))
                    s->tested.append(model);
                if (m_store)
                    m_store->saveSharer(*s);
            }
            if (m_health) {
                m_health->restore(h); // a passing model test restores a dead key
                m_health->recordSuccess(h, m_clock.nowMs() - started);
            }
        } else if ((status == 401 || status == 403) && m_health) {
            m_health->recordFailure(h, model, Health::Failure::AuthRefused);
        }
        Q_EMIT sharerChanged(h);
        done(QJsonObject{
            {QStringLiteral("ok"), ok},
            {QStringLiteral("status"), status},
            {QStringLiteral("ms"), m_clock.nowMs() - started},
            {QStringLiteral("message"), ok ? QStringLiteral("%1 answered").arg(model)
                                           : QStringLiteral("HTTP %1: %2").arg(status).arg(QString::fromUtf8(body_->left(300)).simplified())}});
    };
    callbacks.failed = [this, started, done](Http::UpstreamError, const QString &detail) {
        done(QJsonObject{{QStringLiteral("ok"), false},
                         {QStringLiteral("status"), 0},
                         {QStringLiteral("ms"), m_clock.nowMs() - started},
                         {QStringLiteral("message"), detail}});
    };
    launch(request, std::move(callbacks), TestDeadlineMs, [this, started, model, done] {
        done(QJsonObject{{QStringLiteral("ok"), false},
                         {QStringLiteral("status"), 0},
                         {QStringLiteral("ms"), m_clock.nowMs() - started},
                         {QStringLiteral("message"),
                          QStringLiteral("%1 was not answered within %2 s of connecting; the test gave up").arg(model).arg(TestDeadlineMs / 1000)}});
    });
}

void Verifier::probe(const QString &handle, Done done)
{
    const Catalog::Sharer *sharer = m_book.sharer(handle);
    if (!sharer || !m_book.credentials.contains(sharer->handle)) {
        done(QJsonObject{{QStringLiteral("ok"), false},
                         {QStringLiteral("status"), 0},
                         {QStringLiteral("message"), sharer ? QStringLiteral("no credential") : QStringLiteral("no such sharer")}});
        return;
    }
    // The cheapest authenticated call every provider here answers: list its models.
    Http::HttpRequest inbound;
    Http::UpstreamRequest request = Dispatch::buildUpstreamRequest({m_book.catalog, m_settings.connectTimeoutMs, m_book.credentials}, *sharer,
                                                                   Wire::Endpoint::ChatCompletions, inbound, {});
    const Catalog::ProviderInfo *p = m_book.catalog.provider(sharer->provider);
    QString base = m_book.baseUrlOf(*sharer);
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    request.method = "GET";
    request.body.clear();
    request.headers.remove("content-type");
    request.url = QUrl(base + (p ? p->apiPath : QStringLiteral("/v1")) + QStringLiteral("/models"));
    const QString h = sharer->handle;
    Http::UpstreamCallbacks callbacks;
    callbacks.finished = [this, h, done](const Http::UpstreamCall &call) {
        const int status = call.status();
        const bool answered = status >= 200 && status < 300;
        const bool refused = status == 401 || status == 403;
        if (m_health)
            m_health->recordProbe(h, answered, refused);
        Q_EMIT sharerChanged(h);
        done(QJsonObject{{QStringLiteral("ok"), answered},
                         {QStringLiteral("status"), status},
                         {QStringLiteral("message"), answered  ? QStringLiteral("the credential answered")
                                                     : refused ? QStringLiteral("the provider refused the credential (HTTP %1)").arg(status)
                                                               : QStringLiteral("HTTP %1").arg(status)}});
    };
    callbacks.failed = [this, h, done](Http::UpstreamError, const QString &detail) {
        if (m_health)
            m_health->recordProbe(h, false, false);
        done(QJsonObject{{QStringLiteral("ok"), false}, {QStringLiteral("status"), 0}, {QStringLiteral("message"), detail}});
    };
    launch(request, std::move(callbacks), ProbeDeadlineMs, [this, h, done] {
        if (m_health)
            m_health->recordProbe(h, false, false);
        Q_EMIT sharerChanged(h);
        done(QJsonObject{
            {QStringLiteral("ok"), false},
            {QStringLiteral("status"), 0},
            {QStringLiteral("message"), QStringLiteral("the provider did not answer within %1 s of connecting").arg(ProbeDeadlineMs / 1000)}});
    });
}

void Verifier::startProbing(qint64 intervalMs)
{
    m_intervalMs = qMax<qint64>(60'000, intervalMs);
    m_clock.schedule(m_intervalMs, this, [this] { probeAll(); });
}

void Verifier::probeAll()
{
    for (const Catalog::Sharer &s : m_book.sharers)
        if (!s.blocked && m_book.credentials.contains(s.handle))
            probe(s.handle, [](const QJsonObject &) {});
    m_clock.schedule(m_intervalMs, this, [this] { probeAll(); });
}

} // namespace Aile::Dispatch
