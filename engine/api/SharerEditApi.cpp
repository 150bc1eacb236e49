#include "SharerEditApi.h"

#include "config/EntryChecks.h"
#include "dispatch/Verifier.h"
#include "health/HealthBook.h"
#include "secrets/ReferencePolicy.h"
#include "secrets/SecretStore.h"
#include "state/SharerBook.h"
#include "store/Store.h"

#include <QtCore/QJsonDocument>
#include <QtCore/QPointer>

namespace Aile::Api {

bool SharerEditApi::handle(const ManagementRequest &req, QObject *context, const ManagementReply &reply)
{
    const QJsonObject body = QJsonDocument::fromJson(req.body).object();
    if (req.path == "/sharers" && req.method == "POST") {
        save({}, body, context, reply);
        return true;
    }
    const QList<QByteArray> parts = req.path.mid(1).split('/');
    if (parts.size() < 2 || parts.at(0) != "sharers")
        return false;
    const QString handle = Catalog::normalizeHandle(QString::fromUtf8(parts.at(1)));
    const Catalog::Sharer *s = m_sharers.sharer(handle);
    if (!s) {
        reply(404, managementError(QStringLiteral("no sharer %1; GET /sharers lists them").arg(QString::fromUtf8(parts.at(1)))));
        return true;
    }
    const QByteArray call = parts.size() == 2 ? req.method : parts.size() == 3 ? req.method + ' ' + parts.at(2) : QByteArray();
    if (call == "GET") {
        QJsonObject o = s->toJson();
        o.insert(QStringLiteral("credentialAvailable"), m_sharers.credentials.contains(handle));
        if (s->needsKey())
            o.insert(QStringLiteral("needsKey"), true);
        reply(200, o);
    } else if (call == "PUT") {
        save(handle, body, context, reply);
    } else if (call == "DELETE") {
        remove(handle, reply);
    } else if (call == "POST relink") {
        // A re-link is a new credential for the same account: it restores a dead key.
        if (m_health)
            m_health->restore(handle);
        save(handle, body, context, reply);
    } else if (call == "POST clear-cooldown" && m_health) {
        const QString was = m_health->clearCooldown(handle);
        reply(200, QJsonObject{{QStringLiteral("handle"), handle},
                               {QStringLiteral("cleared"), !was.isEmpty()},
                               {QStringLiteral("was"), was.isEmpty() ? QJsonValue() : QJsonValue(was)},
                               {QStringLiteral("message"), was.isEmpty()
                                                               ? QStringLiteral("%1 was not cooling down").arg(s->name)
                                                               : QStringLiteral("%1 is back in selection (it was cooling: %2)").arg(s->name, was)}});
    } else if ((call == "POST test" || call == "POST probe") && m_verifier) {
        QPointer<QObject> guard(context);
        auto done = [guard, reply](const QJsonObject &result) {
            if (guard)
                reply(200, result);
        };
        const QString model = body.value(QLatin1String("model")).toString();
        if (call == "POST probe")
            m_verifier->probe(handle, done);
        else if (model.isEmpty())
            reply(400, managementError(QStringLiteral("say which model to test: {\"model\": \"gpt-5.2\"}")));
        else
            m_verifier->testModel(handle, model, done);
    } else {
        return false; // not a sharer call: the API's 404 names it
    }
    return true;
}

void SharerEditApi::save(const QString &handle, const QJsonObject &body, QObject *context, const ManagementReply &reply)
{
    const Catalog::Sharer *stored = handle.isEmpty() ? nullptr : m_sharers.sharer(handle);
    QJsonObject merged = stored ? stored->toJson() : QJsonObject();
    for (auto it = body.begin(); it != body.end(); ++it)
        if (it.key() != QLatin1String("secret"))
            merged.insert(it.key(), it.value());
    // The configuration file's sharer check: unknown fields, wrong types and ranges refused alike.
    if (const Config::Problems problems = Config::sharerProblems(merged); !problems.isEmpty())
        return reply(400, managementError(problems.first().message));
    auto parsed = Catalog::Sharer::fromJson(merged, nullptr);
    if (!parsed)
        return reply(400, managementError(QStringLiteral("the sharer could not be read")));
    if (!m_sharers.catalog.provider(parsed->provider))
        return reply(400, managementError(QStringLiteral("unknown provider %1; add it under providers first").arg(parsed->provider)));
    if (handle.isEmpty() && m_sharers.sharer(parsed->handle))
        return reply(409, managementError(QStringLiteral("sharer %1 exists already; PUT /sharers/%1 edits it").arg(parsed->handle)));
    Catalog::Sharer sharer = *parsed;
    const QString secret = body.value(QLatin1String("secret")).toString();
    if (!secret.isEmpty()) {
        const bool toFile = body.value(QLatin1String("credential")).toString().startsWith(QLatin1String("file:"));
        sharer.credentialRef = (toFile ? QStringLiteral("file:") : QStringLiteral("keychain:")) + QStringLiteral("aile-sharer-") + sharer.handle;
    }
    // Checked before any secret is written: plain http:// to another machine keeps no credential,
    // and a reference named here may not be one of the engine's own or belong to another host.
    const QString url = m_sharers.baseUrlOf(sharer);
    if (const QString refusal = Catalog::plainHttpRefusal(sharer, url); !refusal.isEmpty())
        return reply(400, managementError(refusal));
    const bool namesNewReference = secret.isEmpty() && !sharer.credentialRef.isEmpty() && !sharer.usesClientLogin()
                                   && (!stored || stored->credentialRef != sharer.credentialRef);
    if (namesNewReference) {
        if (const QString refusal =
                Secrets::apiReferenceRefusal(sharer.credentialRef, sharer.handle, url, m_adminTokenRef, m_sharers.credentialHomes);
            !refusal.isEmpty())
            return reply(400, managementError(refusal));
    }
    QPointer<QObject> guard(context);
    auto commit = [this, guard, reply](const Catalog::Sharer &s, const QString &value, bool newCredential, bool wasRead = false) {
        // The store applies the credential binding (Catalog::bindCredential): moving a sharer
        // without a new credential leaves it needing its key again.
        Catalog::Sharer saved = s;
        if (m_store) {
            QString saveError;
            if (!m_store->saveSharer(s, &saveError, &saved, newCredential))
                return reply(400, managementError(saveError));
        } else {
            Catalog::bindCredential(saved, m_sharers.sharer(s.handle), newCredential);
        }
        if (Catalog::Sharer *existing = m_sharers.sharer(saved.handle))
            *existing = saved;
        else
            m_sharers.sharers.append(saved);
        if (!value.isEmpty() && !saved.needsKey()) {
            m_sharers.credentials.insert(saved.handle, value);
            m_sharers.credentialErrors.remove(saved.handle);
        } else if (wasRead) {
            m_sharers.credentials.remove(saved.handle); // the old reference's secret is not this one's
        }
        m_sharers.noteCredentialBinding(saved, newCredential);
        auto answer = [this, reply, saved] {
            QJsonObject o = saved.toJson();
            o.insert(QStringLiteral("credentialAvailable"), m_sharers.credentials.contains(saved.handle));
            if (saved.needsKey())
                o.insert(QStringLiteral("needsKey"), true);
            reply(200, o);
        };
        // Back where its credential belongs after a move: its secret is read again.
        if (!wasRead && value.isEmpty() && !saved.credentialRef.isEmpty() && !saved.needsKey() && !saved.usesClientLogin()
            && !m_sharers.credentials.contains(saved.handle) && m_secrets) {
            m_secrets->read(saved.credentialRef, [this, guard, answer, handle = saved.handle](const QString &secret, const QString &readError) {
                if (!secret.isEmpty()) {
                    m_sharers.credentials.insert(handle, secret);
                    m_sharers.credentialErrors.remove(handle);
                } else {
                    m_sharers.credentialErrors.insert(handle, readError);
                }
                if (guard)
                    answer();
            });
            return;
        }
        answer();
    };
    if (!secret.isEmpty()) {
        // The secret goes to the keychain only; the store keeps the reference.
        if (!m_secrets)
            return reply(503, managementError(QStringLiteral("no secret store is available")));
        m_secrets->write(sharer.credentialRef, secret, [guard, reply, commit, sharer, secret](const QString &writeError) {
            if (!guard)
                return;
            if (!writeError.isEmpty())
                return reply(503, managementError(QStringLiteral("the credential was not stored: %1").arg(writeError)));
            commit(sharer, secret, true);
        });
        return;
    }
    if (namesNewReference) {
        m_secrets->read(sharer.credentialRef, [this, guard, reply, commit, sharer](const QString &value, const QString &readError) {
            if (!guard)
                return;
            if (value.isEmpty())
                m_sharers.credentialErrors.insert(sharer.handle, readError);
            commit(sharer, value, false, true);
        });
        return;
    }
    commit(sharer, QString(), false);
}

void SharerEditApi::remove(const QString &handle, const ManagementReply &reply)
{
    // A credential the app stored for this sharer goes with it; one the user named (env:, their own
    // keychain entry) is theirs and stays.
    const QString ref = m_sharers.sharer(handle)->credentialRef;
    if (m_secrets && (ref == QStringLiteral("keychain:aile-sharer-") + handle || ref == QStringLiteral("file:aile-sharer-") + handle))
        m_secrets->remove(ref, [](const auto &) {});
    m_sharers.sharers.removeIf([&](const Catalog::Sharer &s) { return s.handle == handle; });
    m_sharers.credentials.remove(handle);
    if (m_store)
        m_store->removeSharer(handle);
    reply(200, QJsonObject{{QStringLiteral("removed"), handle}});
}

} // namespace Aile::Api
