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
#include <QtCore/QPointer>

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

Verifier::Verifier(Clock &clock, const EngineSettings &settings, State::SharerBook &sharers, Http::UpstreamClient &upstream,
                   Health::HealthBook *health, Store::Store *store, QObject *parent)
    : QObject(parent), m_clock(clock), m_settings(settings), m_book(sharers), m_upstream(upstream), m_health(health), m_store(store)
{ }

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
    Http::UpstreamCall *call = m_upstream.send(request, this);
    auto body_ = std::make_shared<QByteArray>();
    const QString h = sharer->handle;
    bound(call, TestDeadlineMs, [this, started, model, done] {
        done(QJsonObject{{QStringLiteral("ok"), false},
                         {QStringLiteral("status"), 0},
                         {QStringLiteral("ms"), m_clock.nowMs() - started},
                         {QStringLiteral("message"),
                          QStringLiteral("%1 was not answered within %2 s of connecting; the test gave up").arg(model).arg(TestDeadlineMs / 1000)}});
    });
    connect(call, &Http::UpstreamCall::bodyData, this, [body_](const QByteArray &b) {
        if (body_->size() < 4096)
            *body_ += b;
    });
    connect(call, &Http::UpstreamCall::finished, this, [this, call, h, model, started, body_, done] {
        const int status = call->status();
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
        call->deleteLater();
        Q_EMIT sharerChanged(h);
        done(QJsonObject{
            {QStringLiteral("ok"), ok},
            {QStringLiteral("status"), status},
            {QStringLiteral("ms"), m_clock.nowMs() - started},
            {QStringLiteral("message"), ok ? QStringLiteral("%1 answered").arg(model)
                                           : QStringLiteral("HTTP %1: %2").arg(status).arg(QString::fromUtf8(body_->left(300)).simplified())}});
    });
    connect(call, &Http::UpstreamCall::failed, this, [this, call, started, done](Http::UpstreamError, const QString &detail) {
        call->deleteLater();
        done(QJsonObject{{QStringLiteral("ok"), false},
                         {QStringLiteral("status"), 0},
                         {QStringLiteral("ms"), m_clock.nowMs() - started},
                         {QStringLiteral("message"), detail}});
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
    Http::UpstreamCall *call = m_upstream.send(request, this);
    bound(call, ProbeDeadlineMs, [this, h, done] {
        if (m_health)
            m_health->recordProbe(h, false, false);
        Q_EMIT sharerChanged(h);
        done(QJsonObject{
            {QStringLiteral("ok"), false},
            {QStringLiteral("status"), 0},
            {QStringLiteral("message"), QStringLiteral("the provider did not answer within %1 s of connecting").arg(ProbeDeadlineMs / 1000)}});
    });
    connect(call, &Http::UpstreamCall::finished, this, [this, call, h, done] {
        const int status = call->status();
        const bool answered = status >= 200 && status < 300;
        const bool refused = status == 401 || status == 403;
        if (m_health)
            m_health->recordProbe(h, answered, refused);
        call->deleteLater();
        Q_EMIT sharerChanged(h);
        done(QJsonObject{{QStringLiteral("ok"), answered},
                         {QStringLiteral("status"), status},
                         {QStringLiteral("message"), answered  ? QStringLiteral("the credential answered")
                                                     : refused ? QStringLiteral("the provider refused the credential (HTTP %1)").arg(status)
                                                               : QStringLiteral("HTTP %1").arg(status)}});
    });
    connect(call, &Http::UpstreamCall::failed, this, [this, call, h, done](Http::UpstreamError, const QString &detail) {
        if (m_health)
            m_health->recordProbe(h, false, false);
        call->deleteLater();
        done(QJsonObject{{QStringLiteral("ok"), false}, {QStringLiteral("status"), 0}, {QStringLiteral("message"), detail}});
    });
}

void Verifier::bound(Http::UpstreamCall *call, qint64 ms, std::function<void()> onTimeout)
{
    // The deadline lives on the call: it goes when the call is deleted after its answer.
    auto *deadline = new Deadline;
    // No context object: this runs even when the call goes down with the verifier.
    connect(call, &QObject::destroyed, [deadline] { delete deadline; });
    connect(call, &Http::UpstreamCall::connected, this, [this, call, deadline, ms, onTimeout] {
        deadline->start(&m_clock, ms, call, [call, onTimeout] {
            if (call->isDone())
                return;
            call->abort(); // no finished or failed follows: this is the answer
            call->deleteLater();
            onTimeout();
        });
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
