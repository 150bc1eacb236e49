#pragma once

#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QList>
#include <QtCore/QSet>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include <optional>

namespace Aile::Catalog {

/// Whether a provider trains on prompts sent through its API. Unknown fails closed.
enum class DataPolicy { Unknown, Deny, Allow };
DataPolicy dataPolicyFromString(const QString &s);
QString dataPolicyName(DataPolicy p);

struct Capabilities
{
    bool tools = true;
    bool structuredOutput = true;
    bool imageInput = false;
    bool streaming = true;
    bool reasoning = false;
    QStringList hostedTools;
};

/// One model of one provider, with list prices in USD per million tokens.
struct ModelInfo
{
    QString provider;
    QString id;
    QStringList aliases;
    std::optional<double> input;
    std::optional<double> output;
    std::optional<double> cacheRead;
    std::optional<double> cacheWrite;
    qint64 longContextThreshold = 0; // 0: no long-context band
    double longInput = 0;
    double longOutput = 0;
    qint64 contextWindow = 0;
    qint64 maxOutput = 0;
    Capabilities capabilities;
    QString kind = QStringLiteral("chat");
    QString source;
    QString sourceDate;
    bool estimated = false;
    bool overridden = false; // changed by the user

    /// A list price to quote from: input and output, or input alone for a model that writes no
    /// tokens (embeddings, moderation).
    bool priced() const { return input.has_value() && (output.has_value() || kind != QLatin1String("chat")); }
    QJsonObject toJson() const;
    static std::optional<ModelInfo> fromJson(const QJsonObject &o, QString *error);
};

struct ProviderInfo
{
    QString id;
    QString name;
    QSet<QString> wires;                     // chat, responses, messages, embeddings, moderations, rerank
    QString auth = QStringLiteral("bearer"); // or x-api-key
    QString baseUrl;
    QString apiPath = QStringLiteral("/v1");
    QHash<QString, QString> wirePaths; // per-wire replacement of apiPath
    DataPolicy dataCollection = DataPolicy::Unknown;
    bool selfHosted = false;
    bool namespacedIds = false;
    bool outputCap = true;
    bool builtIn = true;

    bool speaks(const QString &wire) const { return wires.contains(wire); }
    /// What replaces the inbound "/v1" for this wire.
    QString pathFor(const QString &wire) const { return wirePaths.value(wire, apiPath); }
    QJsonObject toJson() const;
    static std::optional<ProviderInfo> fromJson(const QJsonObject &o, QString *error);
};

/// Providers and their models with list prices: the shipped table plus the user's overrides.
class Catalog
{
public:
    /// Reads a catalogue document ({"providers": [...], "models": [...]}). Entries replace
    /// entries with the same provider id or provider/model id; others are kept.
    bool merge(const QByteArray &json, QString *error, bool markOverridden = false);
    /// The table shipped in the binary (resources/catalog/catalog.json).
    static Catalog builtIn();

    const ProviderInfo *provider(const QString &id) const;
    /// Exact id or alias; for providers with namespaced ids the id is taken as written.
    const ModelInfo *model(const QString &provider, const QString &id) const;
    QList<const ModelInfo *> modelsOf(const QString &provider) const;
    QList<ProviderInfo> providers() const { return m_providers; }
    QList<ModelInfo> models() const { return m_models; }
    void upsertProvider(const ProviderInfo &provider);
    void upsertModel(const ModelInfo &model);
    QJsonObject toJson() const;

private:
    void indexAliases(const QString &provider);

    QList<ProviderInfo> m_providers;
    QList<ModelInfo> m_models;
    // Where each provider and model sits in the lists, so that a request's lookups are hash
    // lookups, not scans of every model; kept by upsertProvider and upsertModel, the only writers.
    QHash<QString, qsizetype> m_providerAt;
    QHash<QString, QHash<QString, qsizetype>> m_modelAt; // provider -> id -> position
    QHash<QString, QHash<QString, qsizetype>> m_aliasAt; // provider -> alias -> the first model listing it
};

} // namespace Aile::Catalog
