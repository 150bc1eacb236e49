#include "EntryChecks.h"

#include "FieldChecks.h"
#include "catalog/Catalog.h"
#include "catalog/Sharer.h"

#include <QtCore/QJsonArray>
#include <QtCore/QUrl>

namespace Aile::Config {

namespace {

const QStringList &wireNames()
{
    static const QStringList names{QStringLiteral("chat"),       QStringLiteral("responses"),   QStringLiteral("messages"),
                                   QStringLiteral("embeddings"), QStringLiteral("moderations"), QStringLiteral("rerank")};
    return names;
}

const QStringList dataPolicies{QStringLiteral("deny"), QStringLiteral("allow"), QStringLiteral("unknown")};
constexpr double MaxPrice = 100000; // $/Mtok: far above any published price, below nonsense
constexpr double MaxTokens = 1e9;
constexpr const char *Price = "a price in USD per million tokens";
constexpr const char *Tokens = "a number of tokens";

// The object without the members a field check already refused, so the reader's own checks
// (Sharer::fromJson, ProviderInfo::fromJson) do not name them a second time.
QJsonObject without(QJsonObject o, const Problems &refused, const QString &pointer)
{
    for (const Problem &p : refused)
        if (p.pointer.startsWith(pointer + QLatin1Char('/')))
            o.remove(p.pointer.mid(pointer.size() + 1).section(QLatin1Char('/'), 0, 0));
    return o;
}

bool httpUrl(const QString &text)
{
    const QUrl url(text);
    return url.isValid() && (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https")) && !url.host().isEmpty();
}

} // namespace

QString sharerLabel(const QJsonObject &o)
{
    const QString handle = Catalog::normalizeHandle(o.value(QLatin1String("handle")).toString());
    if (!handle.isEmpty())
        return QStringLiteral("sharer ") + handle;
    const QString name = o.value(QLatin1String("name")).toString();
    return name.isEmpty() ? QStringLiteral("sharer") : QStringLiteral("sharer \"%1\"").arg(name);
}

QString keyLabel(const QString &name)
{
    return QStringLiteral("key \"%1\"").arg(name);
}

Problems sharerProblems(const QJsonObject &o, const QString &pointer)
{
    Problems out;
    const QString entry = sharerLabel(o);
    checkFields(o,
                {{"handle", Field::String},
                 {"name", Field::String},
                 {"provider", Field::String},
                 {"baseUrl", Field::String},
                 {"credential", Field::String},
                 {"kind", Field::String, 0, 0, {QStringLiteral("api-key"), QStringLiteral("subscription")}},
                 {"price", Field::Object},
                 {"models", Field::Strings},
                 {"tested", Field::Strings},
                 {"slots", Field::Integer, 0, 10000},
                 {"dataCollection", Field::String, 0, 0, dataPolicies},
                 {"priority", Field::Integer, 0, 10000},
                 {"weight", Field::Number, 0, 10000},
                 {"blocked", Field::Bool}},
                entry, QStringLiteral("sharer field"), pointer, &out);
    const QJsonValue price = o.value(QLatin1String("price"));
    if (price.isObject()) {
        const QString at = pointerTo(pointer, QStringLiteral("price"));
        checkFields(price.toObject(), {{"percentOfList", Field::Number, 0, 1000}, {"models", Field::Object}}, entry,
                    QStringLiteral("price field (a price is {\"percentOfList\": P} or {\"models\": {…}})"), at, &out);
        const QJsonObject quotes = price.toObject().value(QLatin1String("models")).toObject();
        for (auto it = quotes.begin(); it != quotes.end(); ++it) {
            const QString quoteAt = pointerTo(pointerTo(at, QStringLiteral("models")), it.key());
            if (!it.value().isObject()) {
                addProblem(&out, quoteAt, entry,
                           QStringLiteral("the price of %1 must be {\"input\": I, \"output\": O} (USD per million tokens)").arg(it.key()));
                continue;
            }
            checkFields(it.value().toObject(),
                        {{"input", Field::Number, 0, MaxPrice, {}, false, Price}, {"output", Field::Number, 0, MaxPrice, {}, false, Price}},
                        entry + QStringLiteral(", price of ") + it.key(), QStringLiteral("price quote field"), quoteAt, &out);
        }
    }
    // What the field tables cannot say (the handle's form, a provider given, a URL, a credential
    // that is a reference): the sharer's own reader says it.
    QString error;
    if (!Catalog::Sharer::fromJson(without(o, out, pointer), &error) && !error.isEmpty())
        out.append({pointer, error});
    return out;
}

Problems providerProblems(const QJsonObject &o, const QString &pointer)
{
    Problems out;
    const QString entry = QStringLiteral("provider \"%1\"").arg(o.value(QLatin1String("id")).toString());
    checkFields(o,
                {{"id", Field::String},
                 {"name", Field::String},
                 {"wires", Field::Strings},
                 {"auth", Field::String, 0, 0, {QStringLiteral("bearer"), QStringLiteral("x-api-key")}},
                 {"baseUrl", Field::String},
                 {"apiPath", Field::String},
                 {"wirePaths", Field::Object},
                 {"namespacedIds", Field::Bool},
                 {"dataCollection", Field::String, 0, 0, dataPolicies},
                 {"dataCollectionSource", Field::String},
                 {"selfHosted", Field::Bool},
                 {"outputCap", Field::Bool},
                 {"builtIn", Field::Bool}},
                entry, QStringLiteral("provider field"), pointer, &out);
    const QJsonArray wires = o.value(QLatin1String("wires")).toArray();
    for (int i = 0; i < wires.size(); ++i)
        if (wires.at(i).isString() && !wireNames().contains(wires.at(i).toString()))
            addProblem(
                &out, pointerTo(pointerTo(pointer, QStringLiteral("wires")), i), entry,
                QStringLiteral("unknown wire \"%1\"; a provider speaks %2").arg(wires.at(i).toString(), wireNames().join(QStringLiteral(", "))));
    const QJsonObject paths = o.value(QLatin1String("wirePaths")).toObject();
    for (auto it = paths.begin(); it != paths.end(); ++it)
        if (!wireNames().contains(it.key()) || !it.value().toString().startsWith(QLatin1Char('/')))
            addProblem(&out, pointerTo(pointerTo(pointer, QStringLiteral("wirePaths")), it.key()), entry,
                       QStringLiteral("wirePaths maps a wire (%1) to a path starting with /, such as {\"messages\": \"/anthropic/v1\"}")
                           .arg(wireNames().join(QStringLiteral(", "))));
    const QJsonValue base = o.value(QLatin1String("baseUrl"));
    if (base.isString() && !base.toString().isEmpty() && !httpUrl(base.toString()))
        addProblem(
            &out, pointerTo(pointer, QStringLiteral("baseUrl")), entry,
            QStringLiteral("\"baseUrl\" must be an http:// or https:// address, such as \"http://127.0.0.1:8080\", not %1").arg(describeValue(base)));
    const QJsonValue apiPath = o.value(QLatin1String("apiPath"));
    if (apiPath.isString() && !apiPath.toString().isEmpty() && !apiPath.toString().startsWith(QLatin1Char('/')))
        addProblem(&out, pointerTo(pointer, QStringLiteral("apiPath")), entry,
                   QStringLiteral("\"apiPath\" must start with /, such as \"/v1\", not %1").arg(describeValue(apiPath)));
    QString error;
    if (!Catalog::ProviderInfo::fromJson(without(o, out, pointer), &error) && !error.isEmpty())
        out.append({pointerTo(pointer, QStringLiteral("id")), error});
    return out;
}

Problems modelProblems(const QJsonObject &o, const QString &pointer)
{
    Problems out;
    const QString entry = QStringLiteral("model %1/%2").arg(o.value(QLatin1String("provider")).toString(), o.value(QLatin1String("id")).toString());
    checkFields(
        o,
        {{"provider", Field::String},
         {"id", Field::String},
         {"aliases", Field::Strings},
         {"input", Field::Number, 0, MaxPrice, {}, true, Price},
         {"output", Field::Number, 0, MaxPrice, {}, true, Price},
         {"cacheRead", Field::Number, 0, MaxPrice, {}, true, Price},
         {"cacheWrite", Field::Number, 0, MaxPrice, {}, true, Price},
         {"longContext", Field::Object, 0, 0, {}, true},
         {"contextWindow", Field::Integer, 0, MaxTokens, {}, true, Tokens},
         {"maxOutput", Field::Integer, 0, MaxTokens, {}, true, Tokens},
         {"capabilities", Field::Object},
         {"kind", Field::String, 0, 0, {QStringLiteral("chat"), QStringLiteral("embedding"), QStringLiteral("moderation"), QStringLiteral("rerank")}},
         {"source", Field::String},
         {"sourceDate", Field::String},
         {"note", Field::String},
         {"estimated", Field::Bool},
         {"overridden", Field::Bool}},
        entry, QStringLiteral("model field"), pointer, &out);
    checkFields(o.value(QLatin1String("longContext")).toObject(),
                {{"threshold", Field::Number, 0, MaxTokens, {}, false, Tokens},
                 {"input", Field::Number, 0, MaxPrice, {}, false, Price},
                 {"output", Field::Number, 0, MaxPrice, {}, false, Price}},
                entry, QStringLiteral("longContext field"), pointerTo(pointer, QStringLiteral("longContext")), &out);
    checkFields(o.value(QLatin1String("capabilities")).toObject(),
                {{"tools", Field::Bool},
                 {"structuredOutput", Field::Bool},
                 {"imageInput", Field::Bool},
                 {"streaming", Field::Bool},
                 {"reasoning", Field::Bool},
                 {"hostedTools", Field::Strings}},
                entry, QStringLiteral("capability"), pointerTo(pointer, QStringLiteral("capabilities")), &out);
    QString error;
    if (!Catalog::ModelInfo::fromJson(without(o, out, pointer), &error) && !error.isEmpty())
        out.append({pointer, error});
    return out;
}

Problems catalogProblems(const QJsonObject &o, const QString &pointer)
{
    Problems out;
    checkFields(o, {{"version", Field::Any}, {"updated", Field::Any}, {"providers", Field::Array}, {"models", Field::Array}},
                QStringLiteral("catalog"), QStringLiteral("catalogue entry"), pointer, &out);
    for (const char *list : {"providers", "models"}) {
        const QJsonArray entries = o.value(QLatin1String(list)).toArray();
        const QString at = pointerTo(pointer, QLatin1String(list));
        for (int i = 0; i < entries.size(); ++i) {
            if (!entries.at(i).isObject()) {
                addProblem(&out, pointerTo(at, i), QStringLiteral("catalog"),
                           QStringLiteral("every entry of \"%1\" must be an object").arg(QLatin1String(list)));
                continue;
            }
            out += list[0] == 'p' ? providerProblems(entries.at(i).toObject(), pointerTo(at, i))
                                  : modelProblems(entries.at(i).toObject(), pointerTo(at, i));
        }
    }
    return out;
}

Problems settingsProblems(const QJsonObject &o, const QString &pointer)
{
    Problems out;
    constexpr double Day = 86'400'000;
    checkFields(o,
                {{"maxDials", Field::Integer, 1, 16},
                 {"scanCap", Field::Integer, 1, 1000},
                 {"firstByteBudgetMs", Field::Integer, 1, Day},
                 {"idleTimeoutMs", Field::Integer, 1, Day},
                 {"connectTimeoutMs", Field::Integer, 1, 600'000},
                 {"holdAfterMs", Field::Integer, 1, Day},
                 {"holdKeepaliveMs", Field::Integer, 1, 3'600'000},
                 {"tieBandPercent", Field::Number, 0, 100},
                 {"comparisonInputWeight", Field::Number, 0, 1e6},
                 {"comparisonOutputWeight", Field::Number, 0, 1e6},
                 {"degradedSuccessRate", Field::Number, 0, 1},
                 {"degradedMinAttempts", Field::Integer, 1, 1e6},
                 {"sortMinSamples", Field::Integer, 1, 1e6},
                 {"affinityPriceTolerance", Field::Number, 1, 100},
                 {"pinTtlSeconds", Field::Integer, 0, 31'536'000},
                 {"probeIntervalMs", Field::Number, 60'000, 1e13},
                 {"allowedOrigins", Field::Strings},
                 {"allowedHosts", Field::Strings},
                 {"allowRemote", Field::Bool}},
                QStringLiteral("settings"), QStringLiteral("setting"), pointer, &out);
    return out;
}

Problems routingProblems(const QJsonObject &o, const QString &pointer)
{
    Problems out;
    const QString entry = QStringLiteral("routing");
    checkFields(o,
                {{"default_model", Field::String, 0, 0, {}, true},
                 {"fallback_models", Field::Strings},
                 {"selection", Field::String, 0, 0, {QStringLiteral("price"), QStringLiteral("quota-reset")}},
                 {"models", Field::Object}},
                entry, QStringLiteral("routing field"), pointer, &out);
    const QJsonValue model = o.value(QLatin1String("default_model"));
    if (model.isString() && !model.toString().contains(QLatin1Char('/')))
        addProblem(&out, pointerTo(pointer, QStringLiteral("default_model")), entry,
                   QStringLiteral("default_model is a provider/model such as \"openai/gpt-5.2\", or null; not %1").arg(describeValue(model)));
    const QJsonArray fallbacks = o.value(QLatin1String("fallback_models")).toArray();
    if (fallbacks.size() > 8)
        addProblem(&out, pointerTo(pointer, QStringLiteral("fallback_models")), entry,
                   QStringLiteral("fallback_models names %1 models; at most 8 are allowed (the chain is cut to three anyway)").arg(fallbacks.size()));
    for (int i = 0; i < fallbacks.size(); ++i)
        if (fallbacks.at(i).isString() && !fallbacks.at(i).toString().contains(QLatin1Char('/')))
            addProblem(
                &out, pointerTo(pointerTo(pointer, QStringLiteral("fallback_models")), i), entry,
                QStringLiteral("fallback_models: %1 is not a provider/model name such as \"openai/gpt-5.2\"").arg(describeValue(fallbacks.at(i))));
    const QJsonObject models = o.value(QLatin1String("models")).toObject();
    for (auto m = models.begin(); m != models.end(); ++m) {
        const QString at = pointerTo(pointerTo(pointer, QStringLiteral("models")), m.key());
        const QString modelEntry = QStringLiteral("routing.models[\"%1\"]").arg(m.key());
        if (!m.value().isObject()) {
            addProblem(&out, at, modelEntry,
                       QStringLiteral("must be {\"providers\": {\"<sharer handle>\": {\"priority\", \"weight\", \"enabled\"}}}"));
            continue;
        }
        checkFields(m.value().toObject(), {{"providers", Field::Object}}, modelEntry, QStringLiteral("per-model field"), at, &out);
        const QJsonObject sharers = m.value().toObject().value(QLatin1String("providers")).toObject();
        for (auto s = sharers.begin(); s != sharers.end(); ++s) {
            const QString sharerAt = pointerTo(pointerTo(at, QStringLiteral("providers")), s.key());
            const QString label = modelEntry + QStringLiteral(", sharer ") + s.key();
            if (Catalog::normalizeHandle(s.key()).isEmpty())
                addProblem(&out, sharerAt, modelEntry,
                           QStringLiteral("\"%1\" is not a sharer handle; handles are L followed by 16 hex digits").arg(s.key()));
            else if (!s.value().isObject())
                addProblem(&out, sharerAt, label, QStringLiteral("must be {\"priority\", \"weight\", \"enabled\"}"));
            else
                checkFields(s.value().toObject(),
                            {{"priority", Field::Integer, 0, 10000}, {"weight", Field::Number, 0, 10000}, {"enabled", Field::Bool}}, label,
                            QStringLiteral("per-sharer field"), sharerAt, &out);
        }
    }
    return out;
}

Problems keyEntryProblems(const QJsonObject &o, const QString &pointer)
{
    Problems out;
    const QString name = o.value(QLatin1String("name")).toString();
    const QString entry = name.isEmpty() ? QStringLiteral("key") : keyLabel(name);
    checkFields(o, {{"name", Field::String}, {"key", Field::String}, {"routing", Field::Object}, {"routes", Field::Array}}, entry,
                QStringLiteral("key field"), pointer, &out);
    if (name.trimmed().isEmpty())
        addProblem(&out, pointer, QString(), QStringLiteral("every entry of \"keys\" needs a \"name\""));
    else if (name.size() > 100)
        addProblem(&out, pointerTo(pointer, QStringLiteral("name")), entry,
                   QStringLiteral("the key name is %1 characters long; at most 100 are allowed").arg(name.size()));
    const QString plain = o.value(QLatin1String("key")).toString();
    if (!plain.isEmpty() && plain.size() < 16)
        addProblem(&out, pointerTo(pointer, QStringLiteral("key")), entry,
                   QStringLiteral("a provisioned key must be at least 16 characters (sk-aile-…)"));
    return out;
}

Problems topLevelProblems(const QJsonObject &root)
{
    Problems out;
    checkFields(root,
                {{"adminToken", Field::String},
                 {"store", Field::String},
                 {"providers", Field::Array},
                 {"sharers", Field::Array},
                 {"keys", Field::Array},
                 {"routing", Field::Object},
                 {"settings", Field::Object},
                 {"catalog", Field::Object},
                 {"$schema", Field::String}},
                QString(), QStringLiteral("top-level entry of the configuration"), QString(), &out);
    if (const QJsonValue store = root.value(QLatin1String("store")); store.isString() && !store.toString().startsWith(QLatin1String("postgresql://"))
                                                                     && !store.toString().startsWith(QLatin1String("postgres://")))
        out.append({QStringLiteral("/store"), QStringLiteral("\"store\" takes a postgresql://user@host:port/database URL (docs/team.md); "
                                                             "leave it out to keep the data folder's SQLite store")});
    for (const char *list : {"providers", "sharers", "keys"}) {
        const QJsonArray entries = root.value(QLatin1String(list)).toArray();
        for (int i = 0; i < entries.size(); ++i)
            if (!entries.at(i).isObject())
                out.append(
                    {pointerTo(pointerTo(QString(), QLatin1String(list)), i),
                     QStringLiteral("every entry of \"%1\" must be an object, not %2").arg(QLatin1String(list), describeValue(entries.at(i)))});
    }
    return out;
}

} // namespace Aile::Config
