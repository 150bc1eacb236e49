#pragma once

#include "wire/Wire.h"

#include <QtCore/QJsonObject>
#include <QtCore/QString>
#include <QtCore/QStringList>

namespace Aile::Catalog {
struct ModelInfo;
}
namespace Aile::Billing {
struct Rates;
}

namespace Aile::Routing {

/// What a request uses that a candidate must support (docs/rules/tiers-quota-health.md "The default order"): tools,
/// structured output, image input, streaming, and a context window large enough for the
/// estimated prompt. Read from the body of each wire. Reasoning is noted (dry run, trace) but
/// filters nothing: the catalogue's reasoning flags are too coarse to refuse a request on.
struct RequestNeeds
{
    bool tools = false;
    bool structuredOutput = false;
    bool imageInput = false;
    bool streaming = false;
    bool reasoning = false;

    static RequestNeeds of(Wire::Endpoint endpoint, const QJsonObject &body);
    /// What the model lacks, as a phrase for messages and traces ("tool use", "image input",
    /// "a context window of 200000 tokens (the prompt is about 250000)"); empty when it lacks nothing.
    QString missingIn(const Catalog::ModelInfo &model, qint64 promptTokens) const;
    /// The capabilities used, by name (for the dry run and the trace).
    QStringList used() const;
};

/// The comparison price: (input weight × input price + output weight × output price) ÷
/// (sum of the weights). Weights of 0 and 0 read as 1 and 1.
double comparisonPrice(const Billing::Rates &rates, double inputWeight, double outputWeight);

} // namespace Aile::Routing
