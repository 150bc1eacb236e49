#include "Quote.h"

namespace Aile::Billing {

std::optional<Rates> ratesFor(const Catalog::Sharer &sharer, const Catalog::ModelInfo *model, const QString &modelId, qint64 promptTokens)
{
    using Mode = Catalog::PriceSheet::Mode;
    Rates r;
    if (sharer.price.mode == Mode::Quotes) {
        auto it = sharer.price.quotes.constFind(modelId);
        if (it == sharer.price.quotes.constEnd() && model)
            it = sharer.price.quotes.constFind(model->id);
        if (it == sharer.price.quotes.constEnd())
            return std::nullopt;
        r.input = it->input;
        r.output = it->output;
        r.cacheRead = it->input;
        r.cacheWrite = it->input;
        return r;
    }
    if (!model || !model->priced())
        return std::nullopt;
    const double factor = sharer.price.mode == Mode::List ? 1.0 : sharer.price.percent / 100.0;
    r.input = *model->input;
    r.output = model->output.value_or(0);
    r.cacheRead = model->cacheRead.value_or(r.input);
    r.cacheWrite = model->cacheWrite.value_or(r.input);
    if (model->longContextThreshold > 0 && promptTokens > model->longContextThreshold) {
        const double inScale = r.input > 0 ? model->longInput / r.input : 1.0;
        r.input = model->longInput;
        r.output = model->longOutput;
        r.cacheRead *= inScale;
        r.cacheWrite *= inScale;
        r.longContext = true;
    }
    r.input *= factor;
    r.output *= factor;
    r.cacheRead *= factor;
    r.cacheWrite *= factor;
    return r;
}

double costOf(const Rates &rates, qint64 inputTokens, qint64 outputTokens, qint64 cacheReadTokens, qint64 cacheWriteTokens)
{
    return (double(qMax<qint64>(0, inputTokens)) * rates.input + double(qMax<qint64>(0, outputTokens)) * rates.output
            + double(qMax<qint64>(0, cacheReadTokens)) * rates.cacheRead + double(qMax<qint64>(0, cacheWriteTokens)) * rates.cacheWrite)
           / 1e6;
}

QString implausibleUsage(const Wire::Usage &usage, const Catalog::ModelInfo *model)
{
    if (!model || model->contextWindow <= 0)
        return {}; // the catalogue cannot say; the meter's own range check still holds
    const qint64 limit = model->contextWindow + qMax<qint64>(0, model->maxOutput);
    if (usage.totalTokens() <= limit)
        return {};
    return QStringLiteral("%1 tokens reported, more than %2's context window (%3) and output cap (%4) allow")
        .arg(usage.totalTokens())
        .arg(model->id)
        .arg(model->contextWindow)
        .arg(model->maxOutput);
}

qint64 estimatePromptTokens(const QByteArray &body)
{
    // The body's JSON syntax inflates it a little; four bytes a token errs towards a higher quote.
    return qMax<qint64>(1, (body.size() + 3) / 4);
}

} // namespace Aile::Billing
