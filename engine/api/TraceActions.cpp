#include "TraceActions.h"

#include "core/Clock.h"
#include "dispatch/Verifier.h"
#include "health/HealthBook.h"
#include "state/SharerBook.h"
#include "store/Store.h"
#include "store/TraceSink.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QPointer>
#include <QtCore/QRandomGenerator>

namespace Aile::Api {

namespace {

const QStringList Actions{QStringLiteral("clear-cooldown"), QStringLiteral("mark-fixed"), QStringLiteral("retest")};

} // namespace

bool TraceActions::handles(const QByteArray &path)
{
    return path.startsWith("/traces/") && path.endsWith("/actions") && path.count('/') == 3;
}

bool TraceActions::handle(const ManagementRequest &req, QObject *context, const ManagementReply &reply)
{
    if (!handles(req.path))
        return false;
    if (req.method != "POST") {
        reply(405, managementError(QStringLiteral("POST /traces/{id}/actions with {\"action\": …, \"sharer\": …}")));
        return true;
    }
    const QString traceId = QString::fromUtf8(req.path.split('/').value(2));
    const QJsonObject body = QJsonDocument::fromJson(req.body).object();
    // A request that just finished is readable once the writer has committed it.
    QPointer<QObject> guard(context);
    m_services.traces->whenWritten(context, [services = m_services, guard, traceId, body, reply] {
        if (guard)
            act(services, traceId, body, guard, reply);
    });
    return true;
}

void TraceActions::act(const Services &services, const QString &traceId, const QJsonObject &body, QObject *context, const ManagementReply &reply)
{
    const QString action = body.value(QLatin1String("action")).toString();
    if (!Actions.contains(action))
        return reply(400, managementError(QStringLiteral("unknown action \"%1\"; one of: %2").arg(action, Actions.join(QStringLiteral(", ")))));
    const std::optional<Store::TraceRecord> trace = services.store->trace(traceId);
    if (!trace)
        return reply(404, managementError(QStringLiteral("no trace %1; GET /keys/usage/requests lists them").arg(traceId)));
    const QString handle = body.value(QLatin1String("sharer")).toString();
    const auto row = std::find_if(trace->attemptRows.begin(), trace->attemptRows.end(),
                                  [&](const Store::AttemptRecord &a) { return !handle.isEmpty() && a.sharer == handle; });
    if (row == trace->attemptRows.end())
        return reply(
            400, managementError(QStringLiteral("trace %1 has no attempt row of sharer \"%2\": name one of its rows' sharers").arg(traceId, handle)));
    const Catalog::Sharer *s = services.sharers.sharer(handle);
    if (!s)
        return reply(404, managementError(QStringLiteral("sharer %1 no longer exists").arg(handle)));
    const QString model = body.value(QLatin1String("model")).toString(row->model);
    const QString name = s->name;
    auto finish = [services, traceId, action, handle, model, reply](bool ok, const QString &message, QJsonObject extra) {
        record(services, traceId, action, handle, model, ok, message);
        extra.insert(QStringLiteral("action"), action);
        extra.insert(QStringLiteral("sharer"), handle);
        extra.insert(QStringLiteral("ok"), ok);
        extra.insert(QStringLiteral("message"), message);
        reply(200, extra);
    };
    if (action == QLatin1String("clear-cooldown")) {
        if (!services.health)
            return reply(503, managementError(QStringLiteral("the engine keeps no health book")));
        const QString was = services.health->clearCooldown(handle);
        return finish(true,
                      was.isEmpty() ? QStringLiteral("%1 was not cooling down").arg(name)
                                    : QStringLiteral("%1 is back in selection (it was cooling: %2)").arg(name, was),
                      {{QStringLiteral("cleared"), !was.isEmpty()}});
    }
    if (!services.verifier)
        return reply(503, managementError(QStringLiteral("the engine has no verifier")));
    QPointer<QObject> guard(context);
    if (action == QLatin1String("mark-fixed")) {
        if (services.health)
            services.health->restore(handle);
        return services.verifier->probe(handle, [guard, finish, name](const QJsonObject &r) {
            const bool ok = r.value(QLatin1String("ok")).toBool();
            const QString msg =
                QStringLiteral("%1 marked fixed; probe %2: %3")
                    .arg(name, ok ? QStringLiteral("passed") : QStringLiteral("failed"), r.value(QLatin1String("message")).toString());
            if (guard)
                finish(ok, msg, {{QStringLiteral("probe"), r}});
        });
    }
    if (model.isEmpty())
        return reply(400, managementError(QStringLiteral("say which model to re-test: {\"model\": \"gpt-5.2\"}")));
    services.verifier->testModel(handle, model, [guard, finish, name, model](const QJsonObject &r) {
        const bool ok = r.value(QLatin1String("ok")).toBool();
        const QString msg =
            QStringLiteral("test of %1 on %2 %3: %4")
                .arg(model, name, ok ? QStringLiteral("passed") : QStringLiteral("failed"), r.value(QLatin1String("message")).toString());
        if (guard)
            finish(ok, msg, {{QStringLiteral("test"), r}});
    });
}

void TraceActions::record(const Services &services, const QString &traceId, const QString &action, const QString &handle, const QString &model,
                          bool ok, const QString &message)
{
    if (!services.traces)
        return;
    const Catalog::Sharer *s = services.sharers.sharer(handle);
    Store::TraceRecord t;
    t.id = QStringLiteral("act_") + QString::number(QRandomGenerator::global()->generate64(), 16).rightJustified(16, QLatin1Char('0'));
    t.startedMs = services.clock.nowMs();
    t.client = QStringLiteral("aile-action");
    t.endpoint = QStringLiteral("/traces/%1/actions").arg(traceId);
    t.modelAsked = model;
    t.sharer = handle;
    t.sharerName = s ? s->name : QString();
    t.status = ok ? 200 : 502;
    t.error = ok ? QString() : message;
    Store::AttemptRecord a;
    a.seq = 1;
    a.sharer = handle;
    a.sharerName = t.sharerName;
    a.provider = s ? s->provider : QString();
    a.model = model;
    a.outcome = action;
    a.reason = message;
    a.startedMs = t.startedMs;
    a.dispatched = action != QLatin1String("clear-cooldown");
    t.attemptRows << a;
    t.attempts = 1;
    services.traces->add(t, {});
}

} // namespace Aile::Api
