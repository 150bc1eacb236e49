#pragma once

#include "catalog/Catalog.h"
#include "catalog/Sharer.h"
#include "wire/ResponseMeter.h"

#include <QtCore/QByteArray>

#include <optional>

namespace Aile::Billing {

/// A sharer's per-token rates for one model, in $ per million tokens, for a request of a given
/// prompt size: past the model's long-context line the whole request bills at the long rate.
struct Rates
{
    double input = 0;
    double output = 0;
    double cacheRead = 0;
    double cacheWrite = 0;
    bool longContext = false;
    /// Comparison price on the higher of input and output (what a percentage cap compares).
    double higher() const { return qMax(input, output); }
};

/// The rates a sharer charges for a model, or nothing when it cannot be priced (no list price
/// and no quote of its own).
std::optional<Rates> ratesFor(const Catalog::Sharer &sharer, const Catalog::ModelInfo *model, const QString &modelId, qint64 promptTokens);

/// Dollars for a number of tokens at given rates.
double costOf(const Rates &rates, qint64 inputTokens, qint64 outputTokens, qint64 cacheReadTokens = 0, qint64 cacheWriteTokens = 0);

/// Why usage an upstream reported cannot be true of this model (more tokens than its context
/// window plus its output cap, from the catalogue), or empty when it can be.
QString implausibleUsage(const Wire::Usage &usage, const Catalog::ModelInfo *model);

/// The estimated prompt size of a request body, in tokens (about four bytes a token of text).
qint64 estimatePromptTokens(const QByteArray &body);

/// The output cap a quote assumes: the body's own cap field, else 4096.
constexpr qint64 DefaultMaxTokens = 4096;

} // namespace Aile::Billing
