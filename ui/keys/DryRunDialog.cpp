#include "DryRunDialog.h"

#include "common/Format.h"
#include "common/ManagementClient.h"

#include <QtCore/QJsonArray>
#include <QtCore/QLocale>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTreeWidget>
#include <QtWidgets/QVBoxLayout>

namespace Aile::Ui {

DryRunDialog::DryRunDialog(ManagementClient *client, const QString &keyId, const QString &keyName, QWidget *parent)
    : QDialog(parent), m_client(client), m_keyId(keyId), m_model(new QLineEdit(this)), m_run(new QPushButton(tr("&Dry run"), this)),
      m_results(new QTreeWidget(this)), m_summary(new QLabel(this))
{
    setObjectName(QStringLiteral("dryRunDialog"));
    setWindowTitle(tr("Dry run a request with %1").arg(keyName));
    m_model->setObjectName(QStringLiteral("dryRunModel"));
    m_model->setAccessibleName(tr("Model or route"));
    m_model->setPlaceholderText(tr("a route name, provider/model or auto/model, e.g. openai/gpt-5.2"));
    m_run->setObjectName(QStringLiteral("dryRunButton"));
    m_run->setAccessibleName(tr("Dry run"));
    m_run->setDefault(true);
    m_results->setObjectName(QStringLiteral("dryRunResults"));
    m_results->setAccessibleName(tr("What the request would do"));
    m_results->setHeaderLabels({tr("Target / sharer"), tr("Quote"), tr("Tested"), tr("First byte"), tr("Note")});
    m_results->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_results->setRootIsDecorated(true);
    m_summary->setObjectName(QStringLiteral("dryRunSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_summary->setText(tr("Nothing is sent to a sharer, charged or written. The key's saved settings apply."));

    auto *form = new QFormLayout;
    auto *row = new QHBoxLayout;
    row->addWidget(m_model, 1);
    row->addWidget(m_run);
    auto *label = new QLabel(tr("&Model:"), this);
    label->setBuddy(m_model);
    form->addRow(label, row);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    close->button(QDialogButtonBox::Close)->setAccessibleName(tr("Close"));
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_results, 1);
    layout->addWidget(m_summary);
    layout->addWidget(close);
    connect(m_run, &QPushButton::clicked, this, &DryRunDialog::run);
    connect(m_model, &QLineEdit::returnPressed, this, &DryRunDialog::run);
    resize(760, 420);
}

void DryRunDialog::setModel(const QString &model)
{
    m_model->setText(model);
}

QString DryRunDialog::summary() const
{
    return m_summary->text();
}

void DryRunDialog::run()
{
    const QString model = m_model->text().trimmed();
    if (model.isEmpty() || !m_client)
        return;
    m_run->setEnabled(false);
    Api::DryRunAsk ask;
    ask.model = model;
    ask.key = m_keyId;
    m_client->dryRun(ask, this, [this](const Reply<Api::DryRunPlan> &reply) {
        m_run->setEnabled(true);
        if (!reply.ok()) {
            m_results->clear();
            m_summary->setText(reply.error);
            Q_EMIT answered();
            return;
        }
        show(reply.value);
    });
}

QString DryRunDialog::routeLine(const Api::DryRunRoute &route)
{
    QString line = route.order == QLatin1String("cheapest")      ? tr("Route %1 tries its targets cheapest first.")
                   : route.order == QLatin1String("round-robin") ? tr("Route %1 tries its targets in turn (round-robin).")
                                                                 : tr("Route %1 tries its targets in order.");
    line = line.arg(route.name);
    if (const int ttft = route.ttftMs.value_or(0); ttft > 0)
        line +=
            QLatin1Char(' ')
            + tr("A target with no first token within %1 s is dropped for the next (never the last).").arg(QLocale().toString(ttft / 1000.0, 'g', 6));
    return line;
}

void DryRunDialog::show(const Api::DryRunPlan &answer)
{
    m_answer = answer;
    m_results->clear();
    for (const Api::DryRunTarget &t : answer.targets) {
        auto *target = new QTreeWidgetItem(m_results, {t.target});
        // A target refused before any sharer is asked (a spent budget, a cap no sharer fits): the
        // route would move on to the next one.
        if (t.refusal) {
            const QString &code = t.refusal->code;
            const QString why = code == QLatin1String("budget_spent") ? tr("budget spent") : code.isEmpty() ? tr("refused") : code;
            target->setText(4, tr("%1 (HTTP %2): skipped").arg(why).arg(t.refusal->status));
            auto *line = new QTreeWidgetItem(target, {tr("refused: %1").arg(t.refusal->message)});
            line->setToolTip(0, line->text(0));
            line->setFirstColumnSpanned(true);
        }
        for (const Api::DryRunSharer &s : t.sharers) {
            const QString note = s.first ? tr("tried first") : s.tiedWithFirst ? tr("tied with the first") : QString();
            new QTreeWidgetItem(target, {QStringLiteral("%1. %2 (%3)").arg(s.rank).arg(s.name, s.handle),
                                         s.quoteUsd ? QStringLiteral("$") + QLocale().toString(*s.quoteUsd, 'f', 6) : tr("unquotable"),
                                         s.tested ? tr("tested") : tr("not tested"), Format::duration(s.ttfbMs.value_or(-1)), note});
        }
        if (t.more > 0)
            new QTreeWidgetItem(target, {tr("… and %1 more").arg(t.more)});
        for (const Api::DryRunRemoved &r : t.removed)
            new QTreeWidgetItem(target, {tr("removed: %1 (%2)").arg(r.name, r.handle), QString(), QString(), QString(), r.reason});
        for (auto it = t.unavailable.begin(); it != t.unavailable.end(); ++it)
            new QTreeWidgetItem(target, {tr("unavailable (%1): %2").arg(it.key()).arg(it.value())});
        target->setExpanded(true);
    }
    QString text;
    if (answer.route)
        text = routeLine(*answer.route) + QLatin1Char(' ');
    if (answer.refusal)
        text += tr("A real request would be refused: HTTP %1, %2").arg(answer.refusal->status).arg(answer.refusal->message);
    else if (answer.sampled)
        text += tr("The order is sampled: ties are drawn again for a real request.");
    else
        text += tr("The order is fixed.");
    m_summary->setText(text + QLatin1Char(' ') + tr("Nothing was sent, charged or written."));
    Q_EMIT answered();
}

} // namespace Aile::Ui
