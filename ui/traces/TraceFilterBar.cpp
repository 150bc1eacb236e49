#include "TraceFilterBar.h"

#include <QtCore/QJsonObject>
#include <QtCore/QTimer>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>

namespace Aile::Ui {

namespace {

QComboBox *makeCombo(QWidget *parent, const char *name, const QString &accessible)
{
    auto *box = new QComboBox(parent);
    box->setObjectName(QLatin1String(name));
    box->setAccessibleName(accessible);
    box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    return box;
}

QLabel *buddyLabel(const QString &text, QWidget *buddy, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setBuddy(buddy);
    return label;
}

} // namespace

TraceFilterBar::TraceFilterBar(QWidget *parent)
    : QWidget(parent), m_key(makeCombo(this, "filterKey", tr("Filter by key"))), m_model(makeCombo(this, "filterModel", tr("Filter by model"))),
      m_status(makeCombo(this, "filterStatus", tr("Filter by status"))), m_sharer(makeCombo(this, "filterSharer", tr("Filter by sharer"))),
      m_text(new QLineEdit(this)), m_clear(new QPushButton(tr("C&lear"), this)), m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("traceFilterBar"));
    // A model can be typed as well as picked: the list only holds what the sharers offer.
    m_model->setEditable(true);
    m_model->setInsertPolicy(QComboBox::NoInsert);
    m_model->lineEdit()->setPlaceholderText(tr("Any model"));
    m_model->lineEdit()->setClearButtonEnabled(true);
    m_model->lineEdit()->setAccessibleName(tr("Model filter text"));

    m_status->addItem(tr("Any status"), 0);
    for (int code : {200, 400, 401, 402, 403, 404, 429, 500, 502, 503, 524})
        m_status->addItem(QString::number(code), code);

    m_text->setObjectName(QStringLiteral("filterText"));
    m_text->setPlaceholderText(tr("Search model, route, sharer, key, error"));
    m_text->setClearButtonEnabled(true);
    m_text->setAccessibleName(tr("Search traces"));
    m_clear->setObjectName(QStringLiteral("filterClear"));
    m_clear->setAccessibleName(tr("Clear the filters"));

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(250);
    connect(m_debounce, &QTimer::timeout, this, &TraceFilterBar::emitChanged);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(buddyLabel(tr("&Key:"), m_key, this));
    layout->addWidget(m_key);
    layout->addWidget(buddyLabel(tr("&Model:"), m_model, this));
    layout->addWidget(m_model, 1);
    layout->addWidget(buddyLabel(tr("Stat&us:"), m_status, this));
    layout->addWidget(m_status);
    layout->addWidget(buddyLabel(tr("Sha&rer:"), m_sharer, this));
    layout->addWidget(m_sharer);
    layout->addWidget(buddyLabel(tr("Sear&ch:"), m_text, this));
    layout->addWidget(m_text, 2);
    layout->addWidget(m_clear);

    setKeys({});
    setSharers({});
    for (QComboBox *box : {m_key, m_status, m_sharer})
        connect(box, &QComboBox::currentIndexChanged, this, &TraceFilterBar::emitChanged);
    connect(m_model, &QComboBox::currentTextChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_text, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_clear, &QPushButton::clicked, this, &TraceFilterBar::clear);
}

TraceFilter TraceFilterBar::filter() const
{
    TraceFilter f;
    f.keyId = m_key->currentData().toString();
    f.model = m_model->currentText().trimmed();
    f.status = m_status->currentData().toInt();
    f.sharer = m_sharer->currentData().toString();
    f.text = m_text->text().trimmed();
    return f;
}

void TraceFilterBar::refill(QComboBox *box, const QString &anyText, const QList<QPair<QString, QString>> &items)
{
    // Keep the choice across a refresh of the engine's status.
    const QString current = box->currentData().toString();
    const QSignalBlocker block(box);
    box->clear();
    box->addItem(anyText, QString());
    for (const auto &[label, value] : items)
        box->addItem(label, value);
    box->setCurrentIndex(qMax(0, box->findData(current)));
}

void TraceFilterBar::setKeys(const QList<Api::KeyInfo> &keys)
{
    QList<QPair<QString, QString>> items;
    for (const Api::KeyInfo &k : keys)
        items.append({k.name, k.id});
    refill(m_key, tr("Any key"), items);
}

void TraceFilterBar::setSharers(const QList<Api::SharerStatus> &sharers)
{
    QList<QPair<QString, QString>> items;
    QStringList models;
    for (const Api::SharerStatus &s : sharers) {
        items.append({s.config.name, s.config.handle});
        for (const QString &m : s.config.models)
            models << s.config.provider + QLatin1Char('/') + m;
    }
    refill(m_sharer, tr("Any sharer"), items);
    models.removeDuplicates();
    models.sort();
    const QString typed = m_model->currentText();
    const QSignalBlocker block(m_model);
    m_model->clear();
    m_model->addItems(models);
    m_model->setEditText(typed);
}

void TraceFilterBar::clear()
{
    {
        const QSignalBlocker a(m_key), b(m_model), c(m_status), d(m_sharer), e(m_text);
        m_key->setCurrentIndex(0);
        m_model->setEditText(QString());
        m_status->setCurrentIndex(0);
        m_sharer->setCurrentIndex(0);
        m_text->clear();
    }
    emitChanged();
}

void TraceFilterBar::focusText()
{
    m_text->setFocus(Qt::ShortcutFocusReason);
    m_text->selectAll();
}

void TraceFilterBar::emitChanged()
{
    m_debounce->stop();
    Q_EMIT filterChanged(filter());
}

} // namespace Aile::Ui
