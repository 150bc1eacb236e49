#include "Sharer.h"

#include <QtCore/QCryptographicHash>
#include <QtCore/QJsonArray>
#include <QtCore/QUrl>
#include <QtNetwork/QHostAddress>

namespace Aile::Catalog {

QString normalizeHandle(const QString &handle)
{
    // "L" or "l" and 16 hex digits: read by hand, as the request path asks it several times a
    // request (a regular expression match cost more than the rest of a lookup).
    const QString h = handle.trimmed();
    if (h.size() != 17 || (h.at(0) != QLatin1Char('L') && h.at(0) != QLatin1Char('l')))
        return {};
    for (qsizetype i = 1; i < h.size(); ++i) {
        const char16_t c = h.at(i).unicode();
        if (!((c >= u'0' && c <= u'9') || (c >= u'a' && c <= u'f') || (c >= u'A' && c <= u'F')))
            return {};
    }
    return QLatin1Char('L') + h.mid(1).toLower();
}

const Sharer *findSharer(const QList<Sharer> &sharers, const QString &handle)
{
    // A handle from a plan is a sharer's own (normalized) handle: found as it is.
    for (const Sharer &s : sharers)
        if (s.handle == handle)
            return &s;
    const QString h = normalizeHandle(handle);
    for (const Sharer &s : sharers)
        if (s.handle == h)
            return &s;
    return nullptr;
}

QJsonObject PriceSheet::toJson() const
{
    switch (mode) {
    case Mode::List: return QJsonObject{{QStringLiteral("percentOfList"), 100}};
    case Mode::PercentOfList: return QJsonObject{{QStringLiteral("percentOfList"), percent}};
    case Mode::Quotes: {
        QJsonObject models;
        for (auto it = quotes.begin(); it != quotes.end(); ++it)
            models.insert(it.key(), QJsonObject{{QStringLiteral("input"), it->input}, {QStringLiteral("output"), it->output}});
        return QJsonObject{{QStringLiteral("models"), models}};
    }
    }
    return {};
}

std::optional<PriceSheet> PriceSheet::fromJson(const QJsonValue &v, QString *error)
{
    PriceSheet sheet;
    if (v.isUndefined() || v.isNull())
        return sheet;
    const QJsonObject o = v.toObject();
    if (o.contains(QLatin1String("models"))) {
        sheet.mode = Mode::Quotes;
        const QJsonObject models = o.value(QLatin1String("models")).toObject();
        for (auto it = models.begin(); it != models.end(); ++it) {
            const QJsonObject q = it.value().toObject();
            const double in = q.value(QLatin1String("input")).toDouble(-1);
            const double out = q.value(QLatin1String("output")).toDouble(-1);
            if (in < 0 || out < 0) {
                if (error)
                    *error = QStringLiteral("price quote for %1 needs non-negative \"input\" and \"output\" ($ per million tokens)").arg(it.key());
                return std::nullopt;
            }
            sheet.quotes.insert(it.key(), Quote{in, out});
        }
        return sheet;
    }
    if (o.contains(QLatin1String("percentOfList"))) {
        const double p = o.value(QLatin1String("percentOfList")).toDouble(-1);
        if (p < 0 || p > 1000) {
            if (error)
                *error = QStringLiteral("\"percentOfList\" must be between 0 and 1000");
            return std::nullopt;
        }
        sheet.mode = qFuzzyCompare(p, 100.0) ? Mode::List : Mode::PercentOfList;
        sheet.percent = p;
        return sheet;
    }
    if (error)
        *error = QStringLiteral("\"price\" must be {\"percentOfList\": N} or {\"models\": {...}}");
    return std::nullopt;
}

bool Sharer::offers(const QString &model) const
{
    return models.isEmpty() || models.contains(model);
}

QJsonObject Sharer::toJson() const
{
    QJsonObject o{{QStringLiteral("handle"), handle},
                  {QStringLiteral("name"), name},
                  {QStringLiteral("provider"), provider},
                  {QStringLiteral("baseUrl"), baseUrl},
                  {QStringLiteral("credential"), credentialRef},
                  {QStringLiteral("kind"), kind},
                  {QStringLiteral("price"), price.toJson()},
                  {QStringLiteral("models"), QJsonArray::fromStringList(models)},
                  {QStringLiteral("tested"), QJsonArray::fromStringList(tested)},
                  {QStringLiteral("slots"), slots},
                  {QStringLiteral("priority"), priority},
                  {QStringLiteral("weight"), weight}};
    if (dataCollection)
        o.insert(QStringLiteral("dataCollection"), dataPolicyName(*dataCollection));
    if (blocked)
        o.insert(QStringLiteral("blocked"), true);
    return o;
}

std::optional<Sharer> Sharer::fromJson(const QJsonObject &o, QString *error)
{
    auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return std::nullopt;
    };
    Sharer s;
    const QString rawHandle = o.value(QLatin1String("handle")).toString();
    // Without a handle, one is derived from what names the account, so applying the same
    // configuration again (every restart) finds the same sharer instead of adding a copy.
    if (rawHandle.isEmpty()) {
        const QByteArray identity = (o.value(QLatin1String("provider")).toString() + QLatin1Char('\n') + o.value(QLatin1String("name")).toString()
                                     + QLatin1Char('\n') + o.value(QLatin1String("baseUrl")).toString())
                                        .toUtf8();
        s.handle = QLatin1Char('L') + QString::fromLatin1(QCryptographicHash::hash(identity, QCryptographicHash::Sha256).toHex().left(16));
    } else {
        s.handle = normalizeHandle(rawHandle);
    }
    if (s.handle.isEmpty())
        return fail(QStringLiteral("sharer handle \"%1\" must be L followed by 16 hex digits").arg(rawHandle));
    s.name = o.value(QLatin1String("name")).toString(s.handle);
    s.provider = o.value(QLatin1String("provider")).toString();
    if (s.provider.isEmpty())
        return fail(QStringLiteral("sharer %1 needs a \"provider\"").arg(s.handle));
    s.baseUrl = o.value(QLatin1String("baseUrl")).toString();
    if (!s.baseUrl.isEmpty()) {
        const QUrl url(s.baseUrl);
        if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")) || url.host().isEmpty())
            return fail(QStringLiteral("sharer %1: baseUrl \"%2\" must be an http:// or https:// URL").arg(s.handle, s.baseUrl));
    }
    // A node-backed sharer is another Aile (docs/team.md): its provider has no address to fall back on.
    if (s.provider == nodeProvider() && s.baseUrl.isEmpty())
        return fail(
            QStringLiteral("sharer %1 of provider aile (a team server) needs its \"baseUrl\", such as https://aile.team.example").arg(s.handle));
    s.credentialRef = o.value(QLatin1String("credential")).toString();
    if (!s.credentialRef.isEmpty() && !s.usesClientLogin() && !s.credentialRef.startsWith(QLatin1String("env:"))
        && !s.credentialRef.startsWith(QLatin1String("keychain:")) && !s.credentialRef.startsWith(QLatin1String("file:")))
        return fail(QStringLiteral("sharer %1: \"credential\" must be env:NAME, keychain:NAME, file:NAME or \"client\" (the requesting tool's own "
                                   "subscription login), never the secret itself")
                        .arg(s.handle));
    // Kept by the store beside the sharer (Store::saveSharer); anything a caller sends here is
    // replaced by bindCredential() before it is stored.
    s.credentialFor = o.value(QLatin1String("credentialFor")).toString();
    s.kind = o.value(QLatin1String("kind")).toString(QStringLiteral("api-key"));
    if (s.kind != QLatin1String("api-key") && s.kind != QLatin1String("subscription"))
        return fail(QStringLiteral("sharer %1: \"kind\" must be api-key or subscription").arg(s.handle));
    // The tool's own login is an OAuth login of one of the two subscription services (docs/subscriptions.md).
    if (s.usesClientLogin() && (!s.isSubscription() || (s.provider != QLatin1String("claude") && s.provider != QLatin1String("codex"))))
        return fail(QStringLiteral("sharer %1: \"credential\": \"client\" (the requesting tool's own login) is for a \"kind\": \"subscription\" "
                                   "sharer of provider claude (a Claude Pro/Max login) or codex (a ChatGPT login)")
                        .arg(s.handle));
    QString priceError;
    auto sheet = PriceSheet::fromJson(o.value(QLatin1String("price")), &priceError);
    if (!sheet)
        return fail(QStringLiteral("sharer %1: %2").arg(s.handle, priceError));
    s.price = *sheet;
    for (const QJsonValue &v : o.value(QLatin1String("models")).toArray())
        s.models.append(v.toString());
    for (const QJsonValue &v : o.value(QLatin1String("tested")).toArray())
        s.tested.append(v.toString());
    s.slots = qMax(0, o.value(QLatin1String("slots")).toInt(0));
    if (o.contains(QLatin1String("dataCollection")))
        s.dataCollection = dataPolicyFromString(o.value(QLatin1String("dataCollection")).toString());
    s.priority = qBound(0, o.value(QLatin1String("priority")).toInt(0), 10000);
    s.weight = qBound(0, int(std::lround(o.value(QLatin1String("weight")).toDouble(1))), 10000);
    s.blocked = o.value(QLatin1String("blocked")).toBool(false);
    return s;
}

void bindCredential(Sharer &update, const Sharer *stored, bool newCredential)
{
    if (update.credentialRef.isEmpty()) {
        update.credentialFor.clear();
        return;
    }
    if (newCredential || !stored || stored->credentialRef != update.credentialRef) {
        update.credentialFor = update.binding();
        return;
    }
    // The same reference as before: it stays with whatever it was entered for. A row written
    // before bindings were kept was entered for where it pointed then.
    update.credentialFor = stored->credentialFor.isEmpty() ? stored->binding() : stored->credentialFor;
}

QString plainHttpRefusal(const Sharer &sharer, const QString &effectiveUrl)
{
    if (sharer.credentialRef.isEmpty())
        return {};
    const QUrl url(effectiveUrl);
    if (url.scheme() != QLatin1String("http"))
        return {};
    const QString host = url.host().toLower();
    const QHostAddress address(host);
    if (host == QLatin1String("localhost") || host.endsWith(QLatin1String(".localhost")) || (!address.isNull() && address.isLoopback()))
        return {};
    return QStringLiteral("sharer %1: the base URL %2 is plain http:// to %3, which would send its credential unencrypted; "
                          "use https:// (TLS), or remove the credential (\"credential\": \"\") to dial it without one")
        .arg(sharer.handle, effectiveUrl, url.host());
}

QString needsKeyMessage()
{
    return QStringLiteral("needs its key again: its provider or base URL changed since the credential was entered, "
                          "and a credential is only sent where it was entered for");
}

} // namespace Aile::Catalog
