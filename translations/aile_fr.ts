<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>Aile::Ui::AttemptTimeline</name>
    <message>
        <source>Attempt timeline</source>
        <translation>Chronologie des tentatives</translation>
    </message>
    <message>
        <source>%1: %2 after %3, lasted %4</source>
        <translation>%1&#xa0;: %2 après %3, a duré %4</translation>
    </message>
    <message>
        <source>No attempt recorded</source>
        <translation>Aucune tentative enregistrée</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::ChartsView</name>
    <message>
        <source>Time to first token per sharer</source>
        <translation>Délai du premier jeton par partageur</translation>
    </message>
    <message>
        <source>Requests and failures per minute</source>
        <translation>Requêtes et échecs par minute</translation>
    </message>
    <message>
        <source>Money spent and subscription usage at list price per day</source>
        <translation>Argent dépensé et usage des abonnements au prix catalogue, par jour</translation>
    </message>
    <message>
        <source>Spend per day per key</source>
        <translation>Dépenses par jour et par clé</translation>
    </message>
    <message>
        <source>Spend per day per route</source>
        <translation>Dépenses par jour et par route</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>Time to first token per sharer (no request in the last hour)</source>
        <translation>Délai du premier jeton par partageur (aucune requête dans la dernière heure)</translation>
    </message>
    <message>
        <source>Time to first token per sharer, last hour</source>
        <translation>Délai du premier jeton par partageur, dernière heure</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>Requêtes</translation>
    </message>
    <message>
        <source>Failures</source>
        <translation>Échecs</translation>
    </message>
    <message>
        <source>Requests and failures per minute (none in the last hour)</source>
        <translation>Requêtes et échecs par minute (aucune dans la dernière heure)</translation>
    </message>
    <message>
        <source>Requests and failures per minute: %1% served in the last hour</source>
        <translation>Requêtes et échecs par minute&#xa0;: %1&#xa0;% servies dans la dernière heure</translation>
    </message>
    <message>
        <source>%1 requests, %2 failures in the last hour</source>
        <translation>%1 requêtes, %2 échecs dans la dernière heure</translation>
    </message>
    <message>
        <source>(no route)</source>
        <translation>(sans route)</translation>
    </message>
    <message>
        <source>others</source>
        <translation>autres</translation>
    </message>
    <message>
        <source>Sharers drawn: %1</source>
        <translation>Partageurs tracés&#xa0;: %1</translation>
    </message>
    <message>
        <source>%1: %2 in the last %3 days</source>
        <translation>%1&#xa0;: %2 sur les %3 derniers jours</translation>
    </message>
    <message>
        <source>%1 to %2 (UTC)</source>
        <translation>du %1 au %2 (UTC)</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::ClientSnippets</name>
    <message>
        <source>Claude Code</source>
        <translation>Claude Code</translation>
    </message>
    <message>
        <source>Codex CLI</source>
        <translation>Codex CLI</translation>
    </message>
    <message>
        <source>OpenCode</source>
        <translation>OpenCode</translation>
    </message>
    <message>
        <source>OpenAI SDK</source>
        <translation>SDK OpenAI</translation>
    </message>
    <message>
        <source>Anthropic SDK</source>
        <translation>SDK Anthropic</translation>
    </message>
    <message>
        <source>Set these in the shell that starts claude (or in your shell profile). Claude Code sends bare model names; Aile routes them to the claude provider. The last variable stops Claude Code from calling Anthropic&apos;s own hosts for telemetry and updates.</source>
        <translation>Définissez-les dans le shell qui lance claude (ou dans votre profil de shell). Claude Code envoie des noms de modèles nus&#xa0;; Aile les dirige vers le fournisseur claude. La dernière variable empêche Claude Code d’appeler les serveurs d’Anthropic pour la télémétrie et les mises à jour.</translation>
    </message>
    <message>
        <source>Codex ignores OPENAI_BASE_URL: it needs this provider block in $CODEX_HOME/config.toml (~/.codex/config.toml by default) and the key in the AILE_KEY variable. Codex speaks only the Responses wire. A bare model goes to the codex provider; write provider/model for another.</source>
        <translation>Codex ignore OPENAI_BASE_URL&#xa0;: il lui faut ce bloc de fournisseur dans $CODEX_HOME/config.toml (~/.codex/config.toml par défaut) et la clé dans la variable AILE_KEY. Codex ne parle que le protocole Responses. Un modèle nu va au fournisseur codex&#xa0;; écrivez fournisseur/modèle pour un autre.</translation>
    </message>
    <message>
        <source>Put the JSON in opencode.json, or pass it in OPENCODE_CONFIG_CONTENT. Run it as opencode run -m aile/&lt;model&gt;. The other variables keep OpenCode from fetching model lists, updates and language servers from the Internet; leave them out if you want those.</source>
        <translation>Placez le JSON dans opencode.json, ou passez-le dans OPENCODE_CONFIG_CONTENT. Lancez-le avec opencode run -m aile/&lt;modèle&gt;. Les autres variables empêchent OpenCode de télécharger listes de modèles, mises à jour et serveurs de langage depuis Internet&#xa0;; omettez-les si vous les voulez.</translation>
    </message>
    <message>
        <source>The OpenAI SDKs read OPENAI_BASE_URL and OPENAI_API_KEY, or take them in code. The base URL ends in /v1. Name the model as provider/model.</source>
        <translation>Les SDK OpenAI lisent OPENAI_BASE_URL et OPENAI_API_KEY, ou les reçoivent dans le code. L’URL de base se termine par /v1. Nommez le modèle sous la forme fournisseur/modèle.</translation>
    </message>
    <message>
        <source>The Anthropic SDKs read ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY, or take them in code. The base URL has no /v1. Name the model as provider/model.</source>
        <translation>Les SDK Anthropic lisent ANTHROPIC_BASE_URL et ANTHROPIC_API_KEY, ou les reçoivent dans le code. L’URL de base n’a pas de /v1. Nommez le modèle sous la forme fournisseur/modèle.</translation>
    </message>
    <message>
        <source>Environment variables</source>
        <translation>Variables d’environnement</translation>
    </message>
    <message>
        <source>Then run</source>
        <translation>Puis lancez</translation>
    </message>
    <message>
        <source>$CODEX_HOME/config.toml</source>
        <translation>$CODEX_HOME/config.toml</translation>
    </message>
    <message>
        <source>opencode.json</source>
        <translation>opencode.json</translation>
    </message>
    <message>
        <source>Or as environment variables</source>
        <translation>Ou en variables d’environnement</translation>
    </message>
    <message>
        <source>Python</source>
        <translation>Python</translation>
    </message>
    <message>
        <source>JavaScript</source>
        <translation>JavaScript</translation>
    </message>
    <message>
        <source>No sharer can serve %1 yet: it speaks the %2 wire, and none of your sharers is on a provider that does. Add one (for example an OpenAI or Anthropic API key), then come back; the model will be filled in.</source>
        <translation>Aucun partageur ne peut encore servir %1&#xa0;: il parle le protocole %2, et aucun de vos partageurs n’est chez un fournisseur qui le parle. Ajoutez-en un (par exemple une clé d’API OpenAI ou Anthropic), puis revenez&#xa0;: le modèle sera rempli.</translation>
    </message>
    <message>
        <source>Claude Code keeps its own Claude Pro/Max login (claude /login, or CLAUDE_CODE_OAUTH_TOKEN) and sends your Aile key beside it in x-aile-key. Leave ANTHROPIC_API_KEY and ANTHROPIC_AUTH_TOKEN unset: either would replace the login. Aile sends the login only to a subscription sharer whose credential is &quot;client&quot;.</source>
        <translation>Claude Code garde sa propre connexion Claude Pro/Max (claude /login, ou CLAUDE_CODE_OAUTH_TOKEN) et envoie votre clé Aile à côté, dans x-aile-key. Laissez ANTHROPIC_API_KEY et ANTHROPIC_AUTH_TOKEN vides : l&apos;une ou l&apos;autre remplacerait la connexion. Aile n&apos;envoie la connexion qu&apos;à un partageur d&apos;abonnement dont l&apos;identifiant est &quot;client&quot;.</translation>
    </message>
    <message>
        <source>Codex keeps its own ChatGPT login (codex login): requires_openai_auth sends it, and your Aile key travels in x-aile-key from the AILE_KEY variable. Aile sends the login only to a codex subscription sharer whose credential is &quot;client&quot;.</source>
        <translation>Codex garde sa propre connexion ChatGPT (codex login) : requires_openai_auth l&apos;envoie, et votre clé Aile voyage dans x-aile-key depuis la variable AILE_KEY. Aile n&apos;envoie la connexion qu&apos;à un partageur d&apos;abonnement codex dont l&apos;identifiant est &quot;client&quot;.</translation>
    </message>
    <message>
        <source>Then run (signed in with your Claude plan)</source>
        <translation>Puis lancez (connecté avec votre forfait Claude)</translation>
    </message>
    <message>
        <source>Then run (signed in with ChatGPT: codex login)</source>
        <translation>Puis lancez (connecté avec ChatGPT : codex login)</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::CommandLine</name>
    <message>
        <source>Aile: a local LLM router, with its window.</source>
        <translation>Aile&#xa0;: un routeur local de LLM, avec sa fenêtre.</translation>
    </message>
    <message>
        <source>Where the database lives (default: %1).</source>
        <translation>Emplacement de la base de données (par défaut&#xa0;: %1).</translation>
    </message>
    <message>
        <source>Address and port (default 127.0.0.1:2453; port 0 picks a free one).</source>
        <translation>Adresse et port (par défaut 127.0.0.1:2453&#xa0;; le port 0 en choisit un libre).</translation>
    </message>
    <message>
        <source>A JSON configuration file applied at start.</source>
        <translation>Un fichier de configuration JSON appliqué au démarrage.</translation>
    </message>
    <message>
        <source>Opt in to a plain-text secrets file (mode 0600) where no keychain answers.</source>
        <translation>Accepter un fichier de secrets en clair (mode 0600) là où aucun trousseau ne répond.</translation>
    </message>
    <message>
        <source>Start a window of its own even when Aile is already open for this data folder.</source>
        <translation>Ouvrir une fenêtre à part même quand Aile est déjà ouvert pour ce dossier de données.</translation>
    </message>
    <message>
        <source>--listen takes HOST:PORT, for example 127.0.0.1:2453</source>
        <translation>--listen attend HÔTE:PORT, par exemple 127.0.0.1:2453</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::Confirm</name>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::ConnectToolDialog</name>
    <message>
        <source>&amp;Test connection</source>
        <translation>&amp;Tester la connexion</translation>
    </message>
    <message>
        <source>Show its t&amp;race</source>
        <translation>Afficher sa t&amp;race</translation>
    </message>
    <message>
        <source>Connect a tool</source>
        <translation>Connecter un outil</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>Outils</translation>
    </message>
    <message>
        <source>Key name</source>
        <translation>Nom de la clé</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Clé</translation>
    </message>
    <message>
        <source>Paste the key (sk-aile-…)</source>
        <translation>Collez la clé (sk-aile-…)</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Afficher</translation>
    </message>
    <message>
        <source>Show the key</source>
        <translation>Afficher la clé</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>Model name</source>
        <translation>Nom du modèle</translation>
    </message>
    <message>
        <source>About this tool</source>
        <translation>À propos de cet outil</translation>
    </message>
    <message>
        <source>Key &amp;name:</source>
        <translation>&amp;Nom de la clé&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Key:</source>
        <translation>&amp;Clé&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>&amp;Modèle&#xa0;:</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copier</translation>
    </message>
    <message>
        <source>Copied “%1” to the clipboard.</source>
        <translation>«&#xa0;%1&#xa0;» copié dans le presse-papiers.</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>Tester la connexion</translation>
    </message>
    <message>
        <source>Show the test&apos;s trace</source>
        <translation>Afficher la trace du test</translation>
    </message>
    <message>
        <source>Test result</source>
        <translation>Résultat du test</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
    <message>
        <source>(type or paste a key)</source>
        <translation>(saisissez ou collez une clé)</translation>
    </message>
    <message>
        <source>%1 for %2</source>
        <translation>%1 pour %2</translation>
    </message>
    <message>
        <source>Copy %1</source>
        <translation>Copier %1</translation>
    </message>
    <message>
        <source>The proxy is not listening.</source>
        <translation>Le proxy n’écoute pas.</translation>
    </message>
    <message>
        <source>Paste a key first.</source>
        <translation>Collez d’abord une clé.</translation>
    </message>
    <message>
        <source>Sending a request to %1 through the proxy…</source>
        <translation>Envoi d’une requête à %1 par le proxy…</translation>
    </message>
    <message>
        <source>Could not reach the proxy: %1</source>
        <translation>Impossible de joindre le proxy&#xa0;: %1</translation>
    </message>
    <message>
        <source>HTTP %1 in %2 ms, served by %3 (trace %4).</source>
        <translation>HTTP %1 en %2&#xa0;ms, servi par %3 (trace %4).</translation>
    </message>
    <message>
        <source>HTTP %1 in %2 ms: %3</source>
        <translation>HTTP %1 en %2&#xa0;ms&#xa0;: %3</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>&amp;New key…</source>
        <translation>&amp;Nouvelle clé…</translation>
    </message>
    <message>
        <source>Create a new key</source>
        <translation>Créer une nouvelle clé</translation>
    </message>
    <message>
        <source>Aile keeps only a hash of each key, so it cannot show an existing key again. Make a new key here (it is filled in), or paste the key you kept (keys[].key in the configuration file is filled in for you).</source>
        <translation>Aile ne garde qu’une empreinte de chaque clé et ne peut donc plus afficher une clé existante. Créez une nouvelle clé ici (elle est remplie pour vous), ou collez la clé que vous avez gardée (keys[].key du fichier de configuration est rempli pour vous).</translation>
    </message>
    <message>
        <source>About the model</source>
        <translation>À propos du modèle</translation>
    </message>
    <message>
        <source>provider/model</source>
        <translation>fournisseur/modèle</translation>
    </message>
    <message>
        <source>None of your sharers offers %1 on a provider that speaks the %2 wire: requests for it will fail.</source>
        <translation>Aucun de vos partageurs ne propose %1 chez un fournisseur qui parle le protocole %2&#xa0;: les requêtes échoueront.</translation>
    </message>
    <message>
        <source>Chosen because a sharer of yours offers it.</source>
        <translation>Choisi parce qu’un de vos partageurs le propose.</translation>
    </message>
    <message>
        <source>Use this tool&apos;s own &amp;login (Claude or ChatGPT plan)</source>
        <translation>Utiliser la &amp;connexion propre de cet outil (forfait Claude ou ChatGPT)</translation>
    </message>
    <message>
        <source>For a subscription sharer whose credential is &quot;client&quot;: the tool keeps its own login and Aile forwards it to that sharer only; your key goes in x-aile-key</source>
        <translation>Pour un partageur d&apos;abonnement dont l&apos;identifiant est &quot;client&quot; : l&apos;outil garde sa propre connexion et Aile la transmet à ce seul partageur ; votre clé va dans x-aile-key</translation>
    </message>
    <message>
        <source>Sent with your key in x-aile-key and no subscription login: a sharer using the tool&apos;s own login was passed over (&quot;no subscription login on this request&quot;); from the tool it serves.</source>
        <translation>Envoyé avec votre clé dans x-aile-key et sans connexion d&apos;abonnement : un partageur qui utilise la connexion de l&apos;outil a été écarté (&quot;no subscription login on this request&quot;) ; depuis l&apos;outil, il sert.</translation>
    </message>
    <message>
        <source>&amp;Apply for me…</source>
        <translation>&amp;Appliquer pour moi…</translation>
    </message>
    <message>
        <source>R&amp;estore previous settings…</source>
        <translation>R&amp;établir les réglages précédents…</translation>
    </message>
    <message>
        <source>Apply these settings to the tool&apos;s settings file</source>
        <translation>Appliquer ces réglages au fichier de réglages de l’outil</translation>
    </message>
    <message>
        <source>Restore the tool&apos;s previous settings</source>
        <translation>Rétablir les réglages précédents de l’outil</translation>
    </message>
    <message>
        <source>Apply for me writes these settings, your key included, into %1 (a backup is kept).</source>
        <translation>«&#xa0;Appliquer pour moi&#xa0;» écrit ces réglages, votre clé comprise, dans %1 (une copie de sauvegarde est gardée).</translation>
    </message>
    <message>
        <source>Nothing was written: %1</source>
        <translation>Rien n’a été écrit&#xa0;: %1</translation>
    </message>
    <message>
        <source>%1 already holds these settings.</source>
        <translation>%1 contient déjà ces réglages.</translation>
    </message>
    <message>
        <source>Sending what %1 sends at start, with the settings in %2…</source>
        <translation>Envoi de ce que %1 envoie au démarrage, avec les réglages de %2…</translation>
    </message>
    <message>
        <source>%1: no answer (%2)</source>
        <translation>%1&#xa0;: pas de réponse (%2)</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>answered in %1 ms, served by %2 (trace %3).</source>
        <translation>réponse en %1 ms, servie par %2 (trace %3).</translation>
    </message>
    <message>
        <source>refused: %1</source>
        <translation>refusé&#xa0;: %1</translation>
    </message>
    <message>
        <source>The tool&apos;s own path, with the settings in %1: %2; %3</source>
        <translation>Le parcours de l’outil lui-même, avec les réglages de %1&#xa0;: %2&#xa0;; %3</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::DryRunDialog</name>
    <message>
        <source>&amp;Dry run</source>
        <translation>&amp;Simuler</translation>
    </message>
    <message>
        <source>Dry run a request with %1</source>
        <translation>Simuler une requête avec %1</translation>
    </message>
    <message>
        <source>Model or route</source>
        <translation>Modèle ou route</translation>
    </message>
    <message>
        <source>Dry run</source>
        <translation>Simulation</translation>
    </message>
    <message>
        <source>What the request would do</source>
        <translation>Ce que ferait la requête</translation>
    </message>
    <message>
        <source>Target / sharer</source>
        <translation>Cible / partageur</translation>
    </message>
    <message>
        <source>Quote</source>
        <translation>Devis</translation>
    </message>
    <message>
        <source>Tested</source>
        <translation>Testé</translation>
    </message>
    <message>
        <source>First byte</source>
        <translation>Premier octet</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Remarque</translation>
    </message>
    <message>
        <source>Nothing is sent to a sharer, charged or written. The key&apos;s saved settings apply.</source>
        <translation>Rien n’est envoyé à un partageur, facturé ni écrit. Les réglages enregistrés de la clé s’appliquent.</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>&amp;Modèle&#xa0;:</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
    <message>
        <source>tried first</source>
        <translation>essayé en premier</translation>
    </message>
    <message>
        <source>tied with the first</source>
        <translation>à égalité avec le premier</translation>
    </message>
    <message>
        <source>unquotable</source>
        <translation>sans tarif</translation>
    </message>
    <message>
        <source>tested</source>
        <translation>testé</translation>
    </message>
    <message>
        <source>not tested</source>
        <translation>non testé</translation>
    </message>
    <message>
        <source>… and %1 more</source>
        <translation>… et %1 de plus</translation>
    </message>
    <message>
        <source>removed: %1 (%2)</source>
        <translation>écarté&#xa0;: %1 (%2)</translation>
    </message>
    <message>
        <source>unavailable (%1): %2</source>
        <translation>indisponibles (%1)&#xa0;: %2</translation>
    </message>
    <message>
        <source>The order is sampled: ties are drawn again for a real request.</source>
        <translation>L’ordre est tiré au sort&#xa0;: les égalités sont tirées de nouveau pour une vraie requête.</translation>
    </message>
    <message>
        <source>The order is fixed.</source>
        <translation>L’ordre est fixe.</translation>
    </message>
    <message>
        <source>A real request would be refused: HTTP %1, %2</source>
        <translation>Une vraie requête serait refusée&#xa0;: HTTP %1, %2</translation>
    </message>
    <message>
        <source>Nothing was sent, charged or written.</source>
        <translation>Rien n’a été envoyé, facturé ni écrit.</translation>
    </message>
    <message>
        <source>a route name, provider/model or auto/model, e.g. openai/gpt-5.2</source>
        <translation>un nom de route, fournisseur/modèle ou auto/modèle, p. ex. openai/gpt-5.2</translation>
    </message>
    <message>
        <source>Route %1 tries its targets cheapest first.</source>
        <translation>La route %1 essaie ses cibles de la moins chère à la plus chère.</translation>
    </message>
    <message>
        <source>Route %1 tries its targets in turn (round-robin).</source>
        <translation>La route %1 essaie ses cibles à tour de rôle.</translation>
    </message>
    <message>
        <source>Route %1 tries its targets in order.</source>
        <translation>La route %1 essaie ses cibles dans l’ordre.</translation>
    </message>
    <message>
        <source>A target with no first token within %1 s is dropped for the next (never the last).</source>
        <translation>Une cible sans premier jeton en %1&#xa0;s est abandonnée pour la suivante (jamais la dernière).</translation>
    </message>
    <message>
        <source>budget spent</source>
        <translation>budget dépensé</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>refusée</translation>
    </message>
    <message>
        <source>%1 (HTTP %2): skipped</source>
        <translation>%1 (HTTP %2)&#xa0;: passée</translation>
    </message>
    <message>
        <source>refused: %1</source>
        <translation>refusée&#xa0;: %1</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::EngineLink</name>
    <message>
        <source>an Aile engine that does not take this data folder&apos;s admin token (another user&apos;s, or one started with another data folder)</source>
        <translation>un moteur Aile qui n&apos;accepte pas le jeton d&apos;administration de ce dossier de données (celui d&apos;un autre utilisateur, ou lancé avec un autre dossier de données)</translation>
    </message>
    <message>
        <source>a web server that is not Aile (it answered HTTP %1)</source>
        <translation>un serveur web qui n&apos;est pas Aile (il a répondu HTTP %1)</translation>
    </message>
    <message>
        <source>a web server that is not Aile (%1)</source>
        <translation>un serveur web qui n&apos;est pas Aile (%1)</translation>
    </message>
    <message>
        <source>a program that does not answer HTTP (%1)</source>
        <translation>un programme qui ne répond pas en HTTP (%1)</translation>
    </message>
    <message>
        <source>aile serve did not stop: %1</source>
        <translation>aile serve ne s&apos;est pas arrêté : %1</translation>
    </message>
    <message>
        <source>aile serve said it stops, but %1 is still held after %2 seconds</source>
        <translation>aile serve a dit qu&apos;il s&apos;arrêtait, mais %1 est encore occupé après %2 secondes</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::Format</name>
    <message>
        <source>%1 ms</source>
        <translation>%1&#xa0;ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1&#xa0;s</translation>
    </message>
    <message>
        <source>$%1</source>
        <translation>%1&#xa0;$</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>pas de réponse</translation>
    </message>
    <message>
        <source>served</source>
        <translation>servie</translation>
    </message>
    <message>
        <source>failed over</source>
        <translation>basculée</translation>
    </message>
    <message>
        <source>passed through</source>
        <translation>transmise telle quelle</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>refusée</translation>
    </message>
    <message>
        <source>client gone</source>
        <translation>client parti</translation>
    </message>
    <message>
        <source>cut</source>
        <translation>coupée</translation>
    </message>
    <message>
        <source>timed out</source>
        <translation>délai dépassé</translation>
    </message>
    <message>
        <source>cut by the time budget</source>
        <translation>coupée par le budget de temps</translation>
    </message>
    <message>
        <source>error in the stream</source>
        <translation>erreur dans le flux</translation>
    </message>
    <message>
        <source>Claude Code</source>
        <translation>Claude Code</translation>
    </message>
    <message>
        <source>Codex CLI</source>
        <translation>Codex CLI</translation>
    </message>
    <message>
        <source>OpenCode</source>
        <translation>OpenCode</translation>
    </message>
    <message>
        <source>OpenAI SDK</source>
        <translation>SDK OpenAI</translation>
    </message>
    <message>
        <source>Anthropic SDK</source>
        <translation>SDK Anthropic</translation>
    </message>
    <message>
        <source>other</source>
        <translation>autre</translation>
    </message>
    <message>
        <source>fresh</source>
        <translation>nouvelle</translation>
    </message>
    <message>
        <source>pinned</source>
        <translation>épinglée</translation>
    </message>
    <message>
        <source>moved: %1</source>
        <translation>déplacée&#xa0;: %1</translation>
    </message>
    <message>
        <source>off</source>
        <translation>désactivée</translation>
    </message>
    <message>
        <source>cooling</source>
        <translation>en refroidissement</translation>
    </message>
    <message>
        <source>price</source>
        <translation>prix</translation>
    </message>
    <message>
        <source>busy</source>
        <translation>occupé</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>échec</translation>
    </message>
    <message>
        <source>unavailable</source>
        <translation>indisponible</translation>
    </message>
    <message>
        <source>order</source>
        <translation>ordre imposé</translation>
    </message>
    <message>
        <source>sort</source>
        <translation>tri</translation>
    </message>
    <message>
        <source>sharer named</source>
        <translation>partageur nommé</translation>
    </message>
    <message>
        <source>skipped: %1</source>
        <translation>ignorée&#xa0;: %1</translation>
    </message>
    <message>
        <source>its reasoning</source>
        <translation>son raisonnement</translation>
    </message>
    <message>
        <source>its tool call</source>
        <translation>son appel d&apos;outil</translation>
    </message>
    <message>
        <source>the client&apos;s thread</source>
        <translation>le fil du client</translation>
    </message>
    <message>
        <source>its opening in the session</source>
        <translation>son ouverture dans la session</translation>
    </message>
    <message>
        <source>the session</source>
        <translation>la session</translation>
    </message>
    <message>
        <source>prompt_cache_key</source>
        <translation>prompt_cache_key</translation>
    </message>
    <message>
        <source>its opening and first answer</source>
        <translation>son ouverture et sa première réponse</translation>
    </message>
    <message>
        <source>past a phase limit</source>
        <translation>au-delà d’une limite de phase</translation>
    </message>
    <message>
        <source>dropped at the first-token limit</source>
        <translation>abandonnée à la limite du premier jeton</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::GetStartedPanel</name>
    <message>
        <source>Get started</source>
        <translation>Premiers pas</translation>
    </message>
    <message>
        <source>&lt;b&gt;Get started&lt;/b&gt;</source>
        <translation>&lt;b&gt;Premiers pas&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>Masquer</translation>
    </message>
    <message>
        <source>Hide the checklist</source>
        <translation>Masquer la liste</translation>
    </message>
    <message>
        <source>Help ▸ Get started shows it again.</source>
        <translation>Aide ▸ Premiers pas l’affiche de nouveau.</translation>
    </message>
    <message>
        <source>Add a sharer…</source>
        <translation>Ajouter un partageur…</translation>
    </message>
    <message>
        <source>Test model…</source>
        <translation>Tester un modèle…</translation>
    </message>
    <message>
        <source>Create a key…</source>
        <translation>Créer une clé…</translation>
    </message>
    <message>
        <source>Connect a tool…</source>
        <translation>Connecter un outil…</translation>
    </message>
    <message>
        <source>Send a test request</source>
        <translation>Envoyer une requête de test</translation>
    </message>
    <message>
        <source>Show Traces</source>
        <translation>Afficher les traces</translation>
    </message>
    <message>
        <source>Add a sharer: an upstream account (an API key of yours). Done, and a model test passed.</source>
        <translation>Ajoutez un partageur&#xa0;: un compte en amont (une de vos clés d’API). Fait, et un test de modèle a réussi.</translation>
    </message>
    <message>
        <source>Add a sharer: an upstream account (an API key of yours); then Test model checks that it answers.</source>
        <translation>Ajoutez un partageur&#xa0;: un compte en amont (une de vos clés d’API)&#xa0;; puis Tester un modèle vérifie qu’il répond.</translation>
    </message>
    <message>
        <source>Create a key: the local key your tools present to Aile. It is shown once.</source>
        <translation>Créez une clé&#xa0;: la clé locale que vos outils présentent à Aile. Elle n’est affichée qu’une fois.</translation>
    </message>
    <message>
        <source>Connect a tool: copy its settings (Claude Code, Codex, OpenCode, an SDK). Ticks when a request with your key reaches Aile.</source>
        <translation>Connectez un outil&#xa0;: copiez ses réglages (Claude Code, Codex, OpenCode, un SDK). Cochée quand une requête avec votre clé atteint Aile.</translation>
    </message>
    <message>
        <source>Send a test request and see it in Traces. Ticks when a request is answered.</source>
        <translation>Envoyez une requête de test et voyez-la dans Traces. Cochée quand une requête reçoit une réponse.</translation>
    </message>
    <message>
        <source>done</source>
        <translation>fait</translation>
    </message>
    <message>
        <source>to do</source>
        <translation>à faire</translation>
    </message>
    <message>
        <source>All set: Aile answered a request through your sharer. Hide this checklist when you like.</source>
        <translation>Tout est prêt&#xa0;: Aile a répondu à une requête par votre partageur. Masquez cette liste quand vous voulez.</translation>
    </message>
    <message>
        <source>%1 of %2 steps done.</source>
        <translation>%1 étapes sur %2 faites.</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::HttpTransport</name>
    <message>
        <source>No Aile engine answered at %1: %2</source>
        <translation>Aucun moteur Aile n&apos;a répondu à %1 : %2</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::KeyEditDialog</name>
    <message>
        <source>&amp;Save</source>
        <translation>En&amp;registrer</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>Reading the key…</source>
        <translation>Lecture de la clé…</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::KeyRoutesPanel</name>
    <message>
        <source>New ro&amp;ute…</source>
        <translation>Nouvelle ro&amp;ute…</translation>
    </message>
    <message>
        <source>&amp;Edit route…</source>
        <translation>Modifi&amp;er la route…</translation>
    </message>
    <message>
        <source>Re&amp;move route…</source>
        <translation>Suppr&amp;imer la route…</translation>
    </message>
    <message>
        <source>Dr&amp;y run</source>
        <translation>&amp;Simuler</translation>
    </message>
    <message>
        <source>The selected key&apos;s routes</source>
        <translation>Les routes de la clé choisie</translation>
    </message>
    <message>
        <source>New route on the selected key</source>
        <translation>Nouvelle route sur la clé choisie</translation>
    </message>
    <message>
        <source>Edit the selected route</source>
        <translation>Modifier la route choisie</translation>
    </message>
    <message>
        <source>Remove the selected route</source>
        <translation>Supprimer la route choisie</translation>
    </message>
    <message>
        <source>Dry run the selected route</source>
        <translation>Simuler la route choisie</translation>
    </message>
    <message>
        <source>What a request to this route would do, as saved: its targets in order and the sharers of each. Nothing is sent or charged.</source>
        <translation>Ce que ferait une requête vers cette route telle qu’enregistrée&#xa0;: ses cibles dans l’ordre et les partageurs de chacune. Rien n’est envoyé ni facturé.</translation>
    </message>
    <message>
        <source>Routes: select a key.</source>
        <translation>Routes&#xa0;: choisissez une clé.</translation>
    </message>
    <message>
        <source>Routes of %1: none yet. A route tries its targets in turn; a tool uses it by sending its name as the model.</source>
        <translation>Routes de %1&#xa0;: aucune pour l’instant. Une route essaie ses cibles l’une après l’autre&#xa0;; un outil s’en sert en envoyant son nom comme modèle.</translation>
    </message>
    <message>
        <source>Routes of %1: a tool uses one by sending its name as the model.</source>
        <translation>Routes de %1&#xa0;: un outil s’en sert en envoyant son nom comme modèle.</translation>
    </message>
    <message>
        <source>Route %1 saved.</source>
        <translation>Route %1 enregistrée.</translation>
    </message>
    <message>
        <source>Remove route %1?</source>
        <translation>Supprimer la route %1&#xa0;?</translation>
    </message>
    <message>
        <source>Requests made with key %1 that send %2 as the model are no longer routed by it. Its spend today stays in the ledger.</source>
        <translation>Les requêtes faites avec la clé %1 qui envoient %2 comme modèle ne passent plus par elle. Sa dépense du jour reste au registre.</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Supprimer</translation>
    </message>
    <message>
        <source>Route %1 removed.</source>
        <translation>Route %1 supprimée.</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::KeyRoutingDialog</name>
    <message>
        <source>Never these providers</source>
        <translation>Jamais ces fournisseurs</translation>
    </message>
    <message>
        <source>Only providers that do not &amp;train on prompts</source>
        <translation>Seulement les fournisseurs qui n’&amp;entraînent pas sur les prompts</translation>
    </message>
    <message>
        <source>Allow self-&amp;hosted models</source>
        <translation>Autoriser les modèles auto-&amp;hébergés</translation>
    </message>
    <message>
        <source>Only these sharers</source>
        <translation>Seulement ces partageurs</translation>
    </message>
    <message>
        <source>Never these sharers</source>
        <translation>Jamais ces partageurs</translation>
    </message>
    <message>
        <source>Prefer &amp;speed over price</source>
        <translation>Préférer la &amp;vitesse au prix</translation>
    </message>
    <message>
        <source>Move sharers that keep &amp;failing to the back</source>
        <translation>Reléguer à la fin les partageurs qui é&amp;chouent souvent</translation>
    </message>
    <message>
        <source>&amp;Keep a conversation on one sharer</source>
        <translation>&amp;Garder une conversation sur un seul partageur</translation>
    </message>
    <message>
        <source>Only sharers that passed a test of the model (&amp;verified)</source>
        <translation>Seulement les partageurs qui ont réussi un test du modèle (vérifi&amp;és)</translation>
    </message>
    <message>
        <source>Let a bare model id use any provider</source>
        <translation>Laisser un identifiant de modèle nu utiliser n’importe quel fournisseur</translation>
    </message>
    <message>
        <source>Key routing</source>
        <translation>Routage de la clé</translation>
    </message>
    <message>
        <source>Price ceiling</source>
        <translation>Prix plafond</translation>
    </message>
    <message>
        <source>No ceiling</source>
        <translation>Pas de plafond</translation>
    </message>
    <message>
        <source>Percent of the model&apos;s list price</source>
        <translation>Pourcentage du prix catalogue du modèle</translation>
    </message>
    <message>
        <source>Dollars per million tokens</source>
        <translation>Dollars par million de jetons</translation>
    </message>
    <message>
        <source>Price ceiling value</source>
        <translation>Valeur du prix plafond</translation>
    </message>
    <message>
        <source>Price floor</source>
        <translation>Prix plancher</translation>
    </message>
    <message>
        <source>% of list</source>
        <translation>&#xa0;% du catalogue</translation>
    </message>
    <message>
        <source>no floor</source>
        <translation>pas de plancher</translation>
    </message>
    <message>
        <source>A sharer priced under this share of the model&apos;s list price is skipped (the key&apos;s max discount).</source>
        <translation>Un partageur moins cher que cette part du prix catalogue du modèle est écarté (la remise maximale de la clé).</translation>
    </message>
    <message>
        <source>Max cost per request</source>
        <translation>Coût maximal par requête</translation>
    </message>
    <message>
        <source>no cap</source>
        <translation>pas de plafond</translation>
    </message>
    <message>
        <source>The most one request may be charged. A sharer quoting above it is passed over; when all do, the request is refused with a 402 and nothing is charged.</source>
        <translation>Le montant maximal facturé pour une requête. Un partageur dont le devis le dépasse est écarté ; si tous le dépassent, la requête est refusée par un 402 et rien n’est facturé.</translation>
    </message>
    <message>
        <source>Spend limit per day</source>
        <translation>Limite de dépense par jour</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>pas de limite</translation>
    </message>
    <message>
        <source>Over it the key&apos;s requests are refused (403 budget_exceeded) until 00:00 UTC.</source>
        <translation>Au-delà, les requêtes de la clé sont refusées (403 budget_exceeded) jusqu’à 00:00 UTC.</translation>
    </message>
    <message>
        <source>Price and cost</source>
        <translation>Prix et coût</translation>
    </message>
    <message>
        <source>Price &amp;ceiling:</source>
        <translation>Prix &amp;plafond&#xa0;:</translation>
    </message>
    <message>
        <source>Price f&amp;loor:</source>
        <translation>Prix p&amp;lancher&#xa0;:</translation>
    </message>
    <message>
        <source>Max cost per &amp;request:</source>
        <translation>Coût maximal par &amp;requête&#xa0;:</translation>
    </message>
    <message>
        <source>Spend &amp;limit per day:</source>
        <translation>Li&amp;mite de dépense par jour&#xa0;:</translation>
    </message>
    <message>
        <source>Only this provider</source>
        <translation>Seulement ce fournisseur</translation>
    </message>
    <message>
        <source>any provider</source>
        <translation>n’importe quel fournisseur</translation>
    </message>
    <message>
        <source>Provider id</source>
        <translation>Identifiant du fournisseur</translation>
    </message>
    <message>
        <source>Providers</source>
        <translation>Fournisseurs</translation>
    </message>
    <message>
        <source>Only this &amp;provider:</source>
        <translation>Seulement ce &amp;fournisseur&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Never these providers:</source>
        <translation>&amp;Jamais ces fournisseurs&#xa0;:</translation>
    </message>
    <message>
        <source>Sharer handle to add</source>
        <translation>Identifiant de partageur à ajouter</translation>
    </message>
    <message>
        <source>L + 16 hex digits</source>
        <translation>L + 16 chiffres hexadécimaux</translation>
    </message>
    <message>
        <source>A&amp;llow</source>
        <translation>A&amp;utoriser</translation>
    </message>
    <message>
        <source>Add the handle to Only these sharers</source>
        <translation>Ajouter l’identifiant à Seulement ces partageurs</translation>
    </message>
    <message>
        <source>&amp;Block</source>
        <translation>&amp;Bloquer</translation>
    </message>
    <message>
        <source>Add the handle to Never these sharers</source>
        <translation>Ajouter l’identifiant à Jamais ces partageurs</translation>
    </message>
    <message>
        <source>Sharers</source>
        <translation>Partageurs</translation>
    </message>
    <message>
        <source>&amp;Only these sharers:</source>
        <translation>&amp;Seulement ces partageurs&#xa0;:</translation>
    </message>
    <message>
        <source>Ne&amp;ver these sharers:</source>
        <translation>Ja&amp;mais ces partageurs&#xa0;:</translation>
    </message>
    <message>
        <source>Han&amp;dle:</source>
        <translation>I&amp;dentifiant&#xa0;:</translation>
    </message>
    <message>
        <source>None ticked under Only these sharers: every sharer may serve. Up to 50 in each list; price order is unchanged among those left.</source>
        <translation>Aucun coché sous Seulement ces partageurs&#xa0;: tout partageur peut servir. 50 au plus par liste ; l’ordre des prix reste le même parmi ceux qui restent.</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>Ordre</translation>
    </message>
    <message>
        <source>Pin to one sharer</source>
        <translation>Épingler à un seul partageur</translation>
    </message>
    <message>
        <source>Advanced</source>
        <translation>Avancé</translation>
    </message>
    <message>
        <source>One s&amp;harer only:</source>
        <translation>Un seul &amp;partageur&#xa0;:</translation>
    </message>
    <message>
        <source>An older setting: write auto/&lt;model&gt; to let any provider serve. Shown only while it is on.</source>
        <translation>Un ancien réglage&#xa0;: écrivez auto/&lt;modèle&gt; pour laisser n’importe quel fournisseur servir. Affiché seulement tant qu’il est activé.</translation>
    </message>
    <message>
        <source>Why the engine refused the settings</source>
        <translation>Pourquoi le moteur a refusé les réglages</translation>
    </message>
    <message>
        <source>Save the routing</source>
        <translation>Enregistrer le routage</translation>
    </message>
    <message>
        <source> /Mtok</source>
        <translation>&#xa0;/Mjetons</translation>
    </message>
    <message>
        <source>(no pin)</source>
        <translation>(aucun)</translation>
    </message>
    <message>
        <source>A sharer handle is L followed by 16 hex digits (L1a2b3c4d5e6f7a8b).</source>
        <translation>Un identifiant de partageur est un L suivi de 16 chiffres hexadécimaux (L1a2b3c4d5e6f7a8b).</translation>
    </message>
    <message>
        <source>Routing of %1</source>
        <translation>Routage de %1</translation>
    </message>
    <message>
        <source>How requests made with key %1 (%2) choose a sharer. Headers on a request can only narrow these; the key&apos;s routes are bound by them too.</source>
        <translation>Comment les requêtes faites avec la clé %1 (%2) choisissent un partageur. Les en-têtes d’une requête ne peuvent que les resserrer ; les routes de la clé y sont tenues aussi.</translation>
    </message>
    <message>
        <source>At most %1 entries in each list.</source>
        <translation>%1 entrées au plus par liste.</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Time limits per phase: 30 s to a stream&apos;s first byte, 60 s between events, 180 s for an answer not streamed (&amp;524 past them)</source>
        <translation>Limites de temps par phase&#xa0;: 30&#xa0;s jusqu’au premier octet d’un flux, 60&#xa0;s entre deux événements, 180&#xa0;s pour une réponse non diffusée (&amp;524 au-delà)</translation>
    </message>
    <message>
        <source>Replay histor&amp;y…</source>
        <translation>Re&amp;jouer l&apos;historique…</translation>
    </message>
    <message>
        <source>Replay the key&apos;s recorded requests with these settings, unsaved</source>
        <translation>Rejouer les requêtes enregistrées de la clé avec ces réglages, non enregistrés</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::KeysModel</name>
    <message>
        <source>only %1</source>
        <translation>seulement %1</translation>
    </message>
    <message>
        <source>≤ %1% of list</source>
        <translation>≤ %1&#xa0;% du catalogue</translation>
    </message>
    <message>
        <source>≤ %1/Mtok</source>
        <translation>≤ %1/Mjetons</translation>
    </message>
    <message>
        <source>≥ %1% of list</source>
        <translation>≥ %1&#xa0;% du catalogue</translation>
    </message>
    <message>
        <source>cap %1</source>
        <translation>plafond %1</translation>
    </message>
    <message>
        <source>%1 a day</source>
        <translation>%1 par jour</translation>
    </message>
    <message numerus="yes">
        <source>%n allowed sharer(s)</source>
        <translation>
            <numerusform>%n partageur autorisé</numerusform>
            <numerusform>%n partageurs autorisés</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n blocked sharer(s)</source>
        <translation>
            <numerusform>%n partageur bloqué</numerusform>
            <numerusform>%n partageurs bloqués</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n provider(s) left out</source>
        <translation>
            <numerusform>%n fournisseur exclu</numerusform>
            <numerusform>%n fournisseurs exclus</numerusform>
        </translation>
    </message>
    <message>
        <source>no training</source>
        <translation>sans entraînement</translation>
    </message>
    <message>
        <source>no self-hosted</source>
        <translation>sans auto-hébergé</translation>
    </message>
    <message>
        <source>verified only</source>
        <translation>vérifiés seulement</translation>
    </message>
    <message>
        <source>speed first</source>
        <translation>vitesse d’abord</translation>
    </message>
    <message>
        <source>failing sharers last</source>
        <translation>partageurs défaillants en dernier</translation>
    </message>
    <message>
        <source>not sticky</source>
        <translation>sans affinité</translation>
    </message>
    <message>
        <source>pinned to %1</source>
        <translation>épinglée à %1</translation>
    </message>
    <message>
        <source>cheapest first (defaults)</source>
        <translation>le moins cher d’abord (par défaut)</translation>
    </message>
    <message>
        <source>revoked</source>
        <translation>révoquée</translation>
    </message>
    <message>
        <source>active</source>
        <translation>active</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Clé</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Créée</translation>
    </message>
    <message>
        <source>State</source>
        <translation>État</translation>
    </message>
    <message>
        <source>Spent today</source>
        <translation>Dépensé aujourd’hui</translation>
    </message>
    <message>
        <source>Routing</source>
        <translation>Routage</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::KeysView</name>
    <message>
        <source>&amp;New key…</source>
        <translation>&amp;Nouvelle clé…</translation>
    </message>
    <message>
        <source>&amp;Routing…</source>
        <translation>&amp;Routage…</translation>
    </message>
    <message>
        <source>Re&amp;voke…</source>
        <translation>Ré&amp;voquer…</translation>
    </message>
    <message>
        <source>API keys</source>
        <translation>Clés d’API</translation>
    </message>
    <message>
        <source>New key</source>
        <translation>Nouvelle clé</translation>
    </message>
    <message>
        <source>The selected key&apos;s routing</source>
        <translation>Le routage de la clé choisie</translation>
    </message>
    <message>
        <source>Revoke the selected key</source>
        <translation>Révoquer la clé choisie</translation>
    </message>
    <message>
        <source>Tools present a key as Authorization: Bearer or x-api-key. Aile keeps only a hash of each key: a key is shown once, when it is made. Its routing binds every request made with it.</source>
        <translation>Les outils présentent une clé en Authorization: Bearer ou x-api-key. Aile ne garde qu’une empreinte de chaque clé&#xa0;: une clé est affichée une seule fois, à sa création. Son routage s’applique à chaque requête faite avec elle.</translation>
    </message>
    <message>
        <source>Key %1 created.</source>
        <translation>Clé %1 créée.</translation>
    </message>
    <message>
        <source>Routing of %1 saved.</source>
        <translation>Routage de %1 enregistré.</translation>
    </message>
    <message>
        <source>Revoke key %1?</source>
        <translation>Révoquer la clé %1&#xa0;?</translation>
    </message>
    <message>
        <source>Tools that use key %1 (%2) are refused from now on. A revoked key cannot be used again; make a new key for them.</source>
        <translation>Les outils qui utilisent la clé %1 (%2) seront refusés dès maintenant. Une clé révoquée ne peut plus servir ; créez-leur une nouvelle clé.</translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation>Révoquer</translation>
    </message>
    <message>
        <source>Key %1 revoked.</source>
        <translation>Clé %1 révoquée.</translation>
    </message>
    <message>
        <source>&amp;Dry run a request…</source>
        <translation>Si&amp;muler une requête…</translation>
    </message>
    <message>
        <source>Dry run a request with the selected key</source>
        <translation>Simuler une requête avec la clé sélectionnée</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::MainWindow</name>
    <message>
        <source>Aile</source>
        <translation>Aile</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>Pages</translation>
    </message>
    <message>
        <source>&amp;Sharers</source>
        <translation>&amp;Partageurs</translation>
    </message>
    <message>
        <source>&amp;Traces</source>
        <translation>&amp;Traces</translation>
    </message>
    <message>
        <source>C&amp;harts</source>
        <translation>&amp;Graphiques</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Échec de l’export</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Fichier</translation>
    </message>
    <message>
        <source>&amp;Export traces…</source>
        <translation>&amp;Exporter les traces…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quitter</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Affichage</translation>
    </message>
    <message>
        <source>&amp;Charts</source>
        <translation>&amp;Graphiques</translation>
    </message>
    <message>
        <source>&amp;Find in traces</source>
        <translation>&amp;Rechercher dans les traces</translation>
    </message>
    <message>
        <source>T&amp;ools</source>
        <translation>&amp;Outils</translation>
    </message>
    <message>
        <source>&amp;Connect a tool…</source>
        <translation>&amp;Connecter un outil…</translation>
    </message>
    <message>
        <source>Traces exported: %1</source>
        <translation>Traces exportées&#xa0;: %1</translation>
    </message>
    <message>
        <source>&amp;Keys</source>
        <translation>C&amp;lés</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>Aid&amp;e</translation>
    </message>
    <message>
        <source>&amp;Get started</source>
        <translation>&amp;Premiers pas</translation>
    </message>
    <message>
        <source>Open &amp;log folder</source>
        <translation>Ouvrir le dossier du &amp;journal</translation>
    </message>
    <message>
        <source>Take over</source>
        <translation>Prendre la main</translation>
    </message>
    <message>
        <source>Connect to a &amp;team server…</source>
        <translation>Se connecter à un serveur d&apos;é&amp;quipe…</translation>
    </message>
    <message>
        <source>&amp;Disconnect</source>
        <translation>Se &amp;déconnecter</translation>
    </message>
    <message>
        <source>%1 is held by %2</source>
        <translation>%1 est occupé par %2</translation>
    </message>
    <message>
        <source>Use another port</source>
        <translation>Utiliser un autre port</translation>
    </message>
    <message>
        <source>Aile — %1 (pid %2)</source>
        <translation>Aile — %1 (pid %2)</translation>
    </message>
    <message>
        <source>Attached to %1 (pid %2) on %3</source>
        <translation>Rattaché à %1 (pid %2) sur %3</translation>
    </message>
    <message>
        <source>Taking over…</source>
        <translation>Prise de main…</translation>
    </message>
    <message>
        <source>Stop %1 and run the proxy inside this window instead</source>
        <translation>Arrêter %1 et faire tourner le proxy dans cette fenêtre à la place</translation>
    </message>
    <message>
        <source>Aile — team server %1</source>
        <translation>Aile — serveur d&apos;équipe %1</translation>
    </message>
    <message>
        <source>Connected to the team server %1</source>
        <translation>Connecté au serveur d&apos;équipe %1</translation>
    </message>
    <message>
        <source>Disconnect</source>
        <translation>Se déconnecter</translation>
    </message>
    <message>
        <source>Back to the engine on this computer</source>
        <translation>Revenir au moteur de cet ordinateur</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::ManagementClient</name>
    <message>
        <source>The proxy is not running.</source>
        <translation>Le proxy ne tourne pas.</translation>
    </message>
    <message>
        <source>The engine answered HTTP %1.</source>
        <translation>Le moteur a répondu HTTP %1.</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::NewKeyDialog</name>
    <message>
        <source>C&amp;reate</source>
        <translation>C&amp;réer</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Copier</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
    <message>
        <source>New key</source>
        <translation>Nouvelle clé</translation>
    </message>
    <message>
        <source>Key name</source>
        <translation>Nom de la clé</translation>
    </message>
    <message>
        <source>laptop, ci, claude-code…</source>
        <translation>portable, ci, claude-code…</translation>
    </message>
    <message>
        <source>The new key</source>
        <translation>La nouvelle clé</translation>
    </message>
    <message>
        <source>The key appears here once it is created</source>
        <translation>La clé s’affiche ici une fois créée</translation>
    </message>
    <message>
        <source>Create the key</source>
        <translation>Créer la clé</translation>
    </message>
    <message>
        <source>Copy the key</source>
        <translation>Copier la clé</translation>
    </message>
    <message>
        <source>The key is shown here once. Aile keeps only a hash of it, so copy it now: after this dialog closes nothing can show it again (revoke it and make a new one if it is lost).</source>
        <translation>La clé n’est affichée qu’ici, une seule fois. Aile n’en garde qu’une empreinte&#xa0;: copiez-la maintenant, car une fois ce dialogue fermé rien ne peut plus l’afficher (révoquez-la et créez-en une autre si elle est perdue).</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Nom&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Key:</source>
        <translation>&amp;Clé&#xa0;:</translation>
    </message>
    <message>
        <source>Give the key a name first.</source>
        <translation>Donnez d’abord un nom à la clé.</translation>
    </message>
    <message>
        <source>Creating…</source>
        <translation>Création…</translation>
    </message>
    <message>
        <source>Key %1 created.</source>
        <translation>Clé %1 créée.</translation>
    </message>
    <message numerus="yes">
        <source>Copied to the clipboard; it is cleared from there in %n seconds unless you copy something else.</source>
        <translation>
            <numerusform>Copiée dans le presse-papiers&#xa0;; elle en sera effacée dans %n seconde, sauf si vous copiez autre chose.</numerusform>
            <numerusform>Copiée dans le presse-papiers&#xa0;; elle en sera effacée dans %n secondes, sauf si vous copiez autre chose.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Aile::Ui::Notifications</name>
    <message>
        <source>Every sharer of %1 is cooling down</source>
        <translation>Tous les partageurs de %1 sont en pause</translation>
    </message>
    <message>
        <source>Every sharer of %1 failed recently and is cooling down, so requests for %2 are refused until one is back. Add another sharer of %1 or wait.</source>
        <translation>Tous les partageurs de %1 ont échoué récemment et sont en pause&#xa0;: les requêtes pour %2 sont refusées jusqu’au retour de l’un d’eux. Ajoutez un autre partageur de %1 ou patientez.</translation>
    </message>
    <message>
        <source>Key %1 reached its daily spend limit of %2.</source>
        <translation>La clé %1 a atteint sa limite de dépense quotidienne de %2.</translation>
    </message>
    <message>
        <source>Key %1 reached its daily spend limit.</source>
        <translation>La clé %1 a atteint sa limite de dépense quotidienne.</translation>
    </message>
    <message>
        <source>Spent today: %1.</source>
        <translation>Dépensé aujourd’hui&#xa0;: %1.</translation>
    </message>
    <message>
        <source>Its requests are refused until 00:00 UTC; raise the limit in the key&apos;s Routing to go on.</source>
        <translation>Ses requêtes sont refusées jusqu’à 00:00 UTC ; relevez la limite dans le Routage de la clé pour continuer.</translation>
    </message>
    <message>
        <source>Budget reached</source>
        <translation>Budget atteint</translation>
    </message>
    <message>
        <source>Route %1 of key %2 spent its daily budget.</source>
        <translation>La route %1 de la clé %2 a dépensé son budget quotidien.</translation>
    </message>
    <message>
        <source>It is refused until 00:00 UTC.</source>
        <translation>Elle est refusée jusqu’à 00:00 UTC.</translation>
    </message>
    <message>
        <source>%1&apos;s key was refused by %2 (HTTP %3). The sharer is tried last until it is re-linked with a working key.</source>
        <translation>La clé de %1 a été refusée par %2 (HTTP %3). Le partageur passe en dernier jusqu’à ce qu’il soit relié à une clé valide.</translation>
    </message>
    <message>
        <source>%1&apos;s key was refused by %2. The sharer is tried last until it is re-linked with a working key.</source>
        <translation>La clé de %1 a été refusée par %2. Le partageur passe en dernier jusqu’à ce qu’il soit relié à une clé valide.</translation>
    </message>
    <message>
        <source>A sharer&apos;s key was refused</source>
        <translation>La clé d’un partageur a été refusée</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::ReplayDialog</name>
    <message>
        <source>&amp;Replay</source>
        <translation>&amp;Rejouer</translation>
    </message>
    <message>
        <source>What</source>
        <translation>Quoi</translation>
    </message>
    <message>
        <source>Actual</source>
        <translation>Réel</translation>
    </message>
    <message>
        <source>Projected</source>
        <translation>Projeté</translation>
    </message>
    <message>
        <source>Actual and projected</source>
        <translation>Réel et projeté</translation>
    </message>
    <message>
        <source>Target or sharer</source>
        <translation>Cible ou partageur</translation>
    </message>
    <message>
        <source>Requests per target and sharer</source>
        <translation>Requêtes par cible et par partageur</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Quand</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>Was</source>
        <translation>Était</translation>
    </message>
    <message>
        <source>Would be</source>
        <translation>Serait</translation>
    </message>
    <message>
        <source>The requests that change most</source>
        <translation>Les requêtes qui changent le plus</translation>
    </message>
    <message>
        <source>Replay history: %1</source>
        <translation>Rejouer l&apos;historique : %1</translation>
    </message>
    <message>
        <source>Replay history</source>
        <translation>Rejouer l&apos;historique</translation>
    </message>
    <message>
        <source>Days to replay</source>
        <translation>Jours à rejouer</translation>
    </message>
    <message>
        <source> days</source>
        <translation> jours</translation>
    </message>
    <message>
        <source>Replay the recorded requests</source>
        <translation>Rejouer les requêtes enregistrées</translation>
    </message>
    <message>
        <source>Cost per day, actual and projected</source>
        <translation>Coût par jour, réel et projeté</translation>
    </message>
    <message>
        <source>The key&apos;s requests of the last</source>
        <translation>Les requêtes de la clé des derniers</translation>
    </message>
    <message>
        <source>Replaying the recorded requests… nothing is sent, charged or written.</source>
        <translation>Rejeu des requêtes enregistrées… rien n&apos;est envoyé, facturé ni écrit.</translation>
    </message>
    <message>
        <source>%1 via %2, %3</source>
        <translation>%1 via %2, %3</translation>
    </message>
    <message>
        <source>refused (%1)</source>
        <translation>refusée (%1)</translation>
    </message>
    <message>
        <source>refused (%1, %2)</source>
        <translation>refusée (%1, %2)</translation>
    </message>
    <message numerus="yes">
        <source>the %n requests that asked for route %1</source>
        <translation>
            <numerusform>la requête qui a demandé la route %1</numerusform>
            <numerusform>les %n requêtes qui ont demandé la route %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>all %n requests of the key, through route %1</source>
        <translation>
            <numerusform>la requête de la clé, par la route %1</numerusform>
            <numerusform>les %n requêtes de la clé, par la route %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the key&apos;s %n requests as they asked</source>
        <translation>
            <numerusform>la requête de la clé telle qu&apos;elle a été demandée</numerusform>
            <numerusform>les %n requêtes de la clé telles qu&apos;elles ont été demandées</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Over %1 of the last %n days, this would have cost %2 instead of %3 (%4%5).</source>
        <translation>
            <numerusform>Sur %1 du dernier jour, cela aurait coûté %2 au lieu de %3 (%4%5).</numerusform>
            <numerusform>Sur %1 des %n derniers jours, cela aurait coûté %2 au lieu de %3 (%4%5).</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (first on %2)</source>
        <translation>%1 (d&apos;abord le %2)</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>Coût</translation>
    </message>
    <message>
        <source>Served</source>
        <translation>Servies</translation>
    </message>
    <message>
        <source>Stopped by a daily budget</source>
        <translation>Arrêtées par un budget quotidien</translation>
    </message>
    <message>
        <source>Refused by the cost cap</source>
        <translation>Refusées par le plafond de coût</translation>
    </message>
    <message>
        <source>Charged the cost cap</source>
        <translation>Facturées au plafond de coût</translation>
    </message>
    <message>
        <source>No sharer</source>
        <translation>Aucun partageur</translation>
    </message>
    <message>
        <source>Requests that change</source>
        <translation>Requêtes qui changent</translation>
    </message>
    <message>
        <source>sharer %1</source>
        <translation>partageur %1</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::RouteDialog</name>
    <message>
        <source>Save the route</source>
        <translation>Enregistrer la route</translation>
    </message>
    <message>
        <source>Why the engine refused the route</source>
        <translation>Pourquoi le moteur a refusé la route</translation>
    </message>
    <message>
        <source>&amp;Add target</source>
        <translation>&amp;Ajouter une cible</translation>
    </message>
    <message>
        <source>Add a target</source>
        <translation>Ajouter une cible</translation>
    </message>
    <message>
        <source>&amp;Remove target</source>
        <translation>Re&amp;tirer la cible</translation>
    </message>
    <message>
        <source>Remove the selected target</source>
        <translation>Retirer la cible choisie</translation>
    </message>
    <message>
        <source>Move &amp;up</source>
        <translation>&amp;Monter</translation>
    </message>
    <message>
        <source>Move the selected target up</source>
        <translation>Monter la cible choisie</translation>
    </message>
    <message>
        <source>Move do&amp;wn</source>
        <translation>&amp;Descendre</translation>
    </message>
    <message>
        <source>Move the selected target down</source>
        <translation>Descendre la cible choisie</translation>
    </message>
    <message>
        <source>Create a route across &amp;providers…</source>
        <translation>Créer une route entre &amp;fournisseurs…</translation>
    </message>
    <message>
        <source>Fill the targets with every provider that lists a model</source>
        <translation>Remplir les cibles avec chaque fournisseur qui propose un modèle</translation>
    </message>
    <message>
        <source>Time &amp;limits per phase: 30 s to a stream&apos;s first byte, 60 s between events, 180 s for an answer not streamed (the last attempt past one answers 524)</source>
        <translation>&amp;Limites de temps par phase&#xa0;: 30&#xa0;s jusqu’au premier octet d’un flux, 60&#xa0;s entre deux événements, 180&#xa0;s pour une réponse non diffusée (la dernière tentative qui en dépasse une répond 524)</translation>
    </message>
    <message>
        <source>Route</source>
        <translation>Route</translation>
    </message>
    <message>
        <source>Route name</source>
        <translation>Nom de la route</translation>
    </message>
    <message>
        <source>e.g. coding: a tool sends it as the model</source>
        <translation>p. ex. coding&#xa0;: un outil l’envoie comme modèle</translation>
    </message>
    <message>
        <source>Targets, in the order they are tried</source>
        <translation>Cibles, dans l’ordre où elles sont essayées</translation>
    </message>
    <message>
        <source>Order of the targets</source>
        <translation>Ordre des cibles</translation>
    </message>
    <message>
        <source>In order</source>
        <translation>Dans l’ordre</translation>
    </message>
    <message>
        <source>The first target, then the next when one fails.</source>
        <translation>La première cible, puis la suivante quand l’une échoue.</translation>
    </message>
    <message>
        <source>Cheapest</source>
        <translation>La moins chère</translation>
    </message>
    <message>
        <source>The target whose cheapest sharer quotes least for the request goes first.</source>
        <translation>La cible dont le partageur le moins cher propose le plus petit devis pour la requête passe en premier.</translation>
    </message>
    <message>
        <source>Round-robin</source>
        <translation>À tour de rôle</translation>
    </message>
    <message>
        <source>Each request starts at the next target in turn.</source>
        <translation>Chaque requête commence à la cible suivante, à tour de rôle.</translation>
    </message>
    <message>
        <source>Whatever the order, the next target is tried only when one fails.</source>
        <translation>Quel que soit l’ordre, la cible suivante n’est essayée que si l’une échoue.</translation>
    </message>
    <message>
        <source>Prefer</source>
        <translation>Préférer</translation>
    </message>
    <message>
        <source>Follow key</source>
        <translation>Comme la clé</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>La vitesse</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>Le prix</translation>
    </message>
    <message>
        <source>How each target orders its sharers: fastest first or cheapest first. Follow key does what the key&apos;s Routing says.</source>
        <translation>Comment chaque cible ordonne ses partageurs&#xa0;: le plus rapide ou le moins cher d’abord. Comme la clé suit le Routage de la clé.</translation>
    </message>
    <message>
        <source>First-token limit</source>
        <translation>Limite du premier jeton</translation>
    </message>
    <message>
        <source>off</source>
        <translation>désactivée</translation>
    </message>
    <message>
        <source> s</source>
        <translation>&#xa0;s</translation>
    </message>
    <message>
        <source>Time limits per phase</source>
        <translation>Limites de temps par phase</translation>
    </message>
    <message>
        <source>Daily budget of the route</source>
        <translation>Budget quotidien de la route</translation>
    </message>
    <message>
        <source>no budget</source>
        <translation>pas de budget</translation>
    </message>
    <message>
        <source>Once the route has spent it today (UTC), its requests are refused with a 402 until 00:00 UTC.</source>
        <translation>Une fois qu’il est dépensé aujourd’hui (UTC), les requêtes de la route sont refusées par un 402 jusqu’à 00:00 UTC.</translation>
    </message>
    <message>
        <source>Targets, tried in order</source>
        <translation>Cibles, essayées dans l’ordre</translation>
    </message>
    <message>
        <source>Order and limits</source>
        <translation>Ordre et limites</translation>
    </message>
    <message>
        <source>&amp;Order:</source>
        <translation>&amp;Ordre&#xa0;:</translation>
    </message>
    <message>
        <source>Pr&amp;efer:</source>
        <translation>&amp;Préférer&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;First-token limit:</source>
        <translation>Limite du premier &amp;jeton&#xa0;:</translation>
    </message>
    <message>
        <source>Daily &amp;budget:</source>
        <translation>&amp;Budget quotidien&#xa0;:</translation>
    </message>
    <message>
        <source>Spent today:</source>
        <translation>Dépensé aujourd’hui&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Nom&#xa0;:</translation>
    </message>
    <message>
        <source>When a target has produced no output within it, across every sharer tried for it, the route moves to the next target. Nothing is charged for the dropped attempt. The last target is never cut, and only streamed requests on your balance are limited.</source>
        <translation>Quand une cible n’a rien produit dans ce délai, tous partageurs essayés confondus, la route passe à la cible suivante. Rien n’est facturé pour la tentative abandonnée. La dernière cible n’est jamais coupée, et seules les requêtes diffusées payées sur votre solde sont limitées.</translation>
    </message>
    <message>
        <source>A first-token limit needs two targets or more: the last target tried is never cut.</source>
        <translation>Une limite du premier jeton demande au moins deux cibles&#xa0;: la dernière cible essayée n’est jamais coupée.</translation>
    </message>
    <message>
        <source>New route on %1</source>
        <translation>Nouvelle route sur %1</translation>
    </message>
    <message>
        <source>Route %1 of %2</source>
        <translation>Route %1 de %2</translation>
    </message>
    <message>
        <source>A tool uses the route by sending its name as the model, with key %1. Each target is tried in turn when the one before fails; the key&apos;s own routing binds every target.</source>
        <translation>Un outil se sert de la route en envoyant son nom comme modèle, avec la clé %1. Chaque cible est essayée à son tour quand la précédente échoue&#xa0;; le routage de la clé s’applique à chaque cible.</translation>
    </message>
    <message>
        <source>nothing yet (not saved)</source>
        <translation>rien pour l’instant (non enregistrée)</translation>
    </message>
    <message>
        <source>%1 of %2 (UTC day)</source>
        <translation>%1 sur %2 (jour UTC)</translation>
    </message>
    <message>
        <source>%1 (UTC day)</source>
        <translation>%1 (jour UTC)</translation>
    </message>
    <message>
        <source>Create a route across providers</source>
        <translation>Créer une route entre fournisseurs</translation>
    </message>
    <message>
        <source>Model id, without a provider (e.g. gpt-5.5 or claude-sonnet-5). Every provider that lists it becomes a target, cheapest first; the targets shown now are replaced.</source>
        <translation>Identifiant du modèle, sans fournisseur (p. ex. gpt-5.5 ou claude-sonnet-5). Chaque fournisseur qui le propose devient une cible, la moins chère d’abord&#xa0;; les cibles affichées sont remplacées.</translation>
    </message>
    <message>
        <source>No provider lists %1 under that name; the targets were left as they were.</source>
        <translation>Aucun fournisseur ne propose %1 sous ce nom&#xa0;; les cibles sont restées telles quelles.</translation>
    </message>
    <message numerus="yes">
        <source>%n target(s) from the providers that list %1, cheapest first. Nothing is saved until you press Save.</source>
        <translation>
            <numerusform>%n cible des fournisseurs qui proposent %1, la moins chère d’abord. Rien n’est enregistré avant Enregistrer.</numerusform>
            <numerusform>%n cibles des fournisseurs qui proposent %1, la moins chère d’abord. Rien n’est enregistré avant Enregistrer.</numerusform>
        </translation>
    </message>
    <message>
        <source>Similar names, never added: %1.</source>
        <translation>Noms voisins, jamais ajoutés&#xa0;: %1.</translation>
    </message>
    <message>
        <source>Left out: %1.</source>
        <translation>Écartés&#xa0;: %1.</translation>
    </message>
    <message>
        <source>Replay histor&amp;y…</source>
        <translation>Re&amp;jouer l&apos;historique…</translation>
    </message>
    <message>
        <source>Replay the key&apos;s recorded requests with this route, unsaved</source>
        <translation>Rejouer les requêtes enregistrées de la clé avec cette route, non enregistrée</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::RouteTargetsTable</name>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>Sharer</source>
        <translation>Partageur</translation>
    </message>
    <message>
        <source>Daily budget</source>
        <translation>Budget quotidien</translation>
    </message>
    <message>
        <source>Spent today</source>
        <translation>Dépensé aujourd’hui</translation>
    </message>
    <message>
        <source>What the key was charged through this target since 00:00 UTC, as saved. An edited target starts afresh.</source>
        <translation>Ce qui a été facturé à la clé par cette cible depuis 00:00 UTC, telle qu’enregistrée. Une cible modifiée repart de zéro.</translation>
    </message>
    <message>
        <source>The most one request through this target may be charged; the key&apos;s own cap binds too, the stricter winning.</source>
        <translation>Le montant maximal facturé pour une requête par cette cible&#xa0;; le plafond de la clé s’applique aussi, le plus strict l’emportant.</translation>
    </message>
    <message>
        <source>Once this target has spent it today (UTC), the route moves on to its next target.</source>
        <translation>Une fois qu’elle l’a dépensé aujourd’hui (UTC), la route passe à sa cible suivante.</translation>
    </message>
    <message>
        <source>provider/model</source>
        <translation>fournisseur/modèle</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>Any sharer</source>
        <translation>Tout partageur</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Nothing spent today through this target as it stands: a new or edited target starts afresh.</source>
        <translation>Rien de dépensé aujourd’hui par cette cible telle qu’elle est&#xa0;: une cible nouvelle ou modifiée repart de zéro.</translation>
    </message>
    <message>
        <source>%1 of its %2 daily budget spent today (UTC)</source>
        <translation>%1 dépensés aujourd’hui (UTC) sur son budget quotidien de %2</translation>
    </message>
    <message>
        <source>%1 spent today (UTC)</source>
        <translation>%1 dépensés aujourd’hui (UTC)</translation>
    </message>
    <message>
        <source>Model of target %1</source>
        <translation>Modèle de la cible %1</translation>
    </message>
    <message>
        <source>Sharer of target %1</source>
        <translation>Partageur de la cible %1</translation>
    </message>
    <message>
        <source>Max cost per request of target %1</source>
        <translation>Coût maximal par requête de la cible %1</translation>
    </message>
    <message>
        <source>Daily budget of target %1</source>
        <translation>Budget quotidien de la cible %1</translation>
    </message>
    <message>
        <source>Max cost</source>
        <translation>Coût max.</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::RoutesModel</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>cheapest</source>
        <translation>la moins chère</translation>
    </message>
    <message>
        <source>round-robin</source>
        <translation>à tour de rôle</translation>
    </message>
    <message>
        <source>in order</source>
        <translation>dans l’ordre</translation>
    </message>
    <message>
        <source>speed first</source>
        <translation>vitesse d’abord</translation>
    </message>
    <message>
        <source>price first</source>
        <translation>prix d’abord</translation>
    </message>
    <message>
        <source>first token within %1 s</source>
        <translation>premier jeton en %1&#xa0;s</translation>
    </message>
    <message>
        <source>phase limits</source>
        <translation>limites par phase</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucune</translation>
    </message>
    <message>
        <source>Spent today (UTC) through each target:</source>
        <translation>Dépensé aujourd’hui (UTC) par chaque cible&#xa0;:</translation>
    </message>
    <message>
        <source>%1: %2 of %3</source>
        <translation>%1&#xa0;: %2 sur %3</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1&#xa0;: %2</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 sur %2</translation>
    </message>
    <message>
        <source>Route</source>
        <translation>Route</translation>
    </message>
    <message>
        <source>Targets, in order</source>
        <translation>Cibles, dans l’ordre</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>Ordre</translation>
    </message>
    <message>
        <source>Limits</source>
        <translation>Limites</translation>
    </message>
    <message>
        <source>Spent today / budget</source>
        <translation>Dépensé aujourd’hui / budget</translation>
    </message>
    <message>
        <source>The daily budget is spent: requests through this route are refused with a 402 until 00:00 UTC.</source>
        <translation>Le budget quotidien est dépensé&#xa0;: les requêtes par cette route sont refusées par un 402 jusqu’à 00:00 UTC.</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::SharerDialog</name>
    <message>
        <source>The engine answered HTTP %1</source>
        <translation>Le moteur a répondu HTTP %1</translation>
    </message>
    <message>
        <source>Handle</source>
        <translation>Identifiant</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Fournisseur</translation>
    </message>
    <message>
        <source>Provider id</source>
        <translation>Identifiant du fournisseur</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>URL de base</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>Prix</translation>
    </message>
    <message>
        <source>Percent of list price</source>
        <translation>Pourcentage du prix catalogue</translation>
    </message>
    <message>
        <source>Per-model quotes</source>
        <translation>Tarifs par modèle</translation>
    </message>
    <message>
        <source>Models offered</source>
        <translation>Modèles proposés</translation>
    </message>
    <message>
        <source>Concurrency slots</source>
        <translation>Requêtes simultanées</translation>
    </message>
    <message>
        <source>Data collection</source>
        <translation>Collecte des données</translation>
    </message>
    <message>
        <source>Credential</source>
        <translation>Identifiant secret</translation>
    </message>
    <message>
        <source>Keep it in the plain-text secrets file (mode 0600) instead of the keychain</source>
        <translation>Le garder dans le fichier de secrets en clair (mode 0600) plutôt que dans le trousseau</translation>
    </message>
    <message>
        <source>Keep the credential in the plain-text secrets file</source>
        <translation>Garder l’identifiant secret dans le fichier de secrets en clair</translation>
    </message>
    <message>
        <source>Where the credential goes</source>
        <translation>Où va l’identifiant secret</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Erreur</translation>
    </message>
    <message>
        <source>Add sharer</source>
        <translation>Ajouter un partageur</translation>
    </message>
    <message>
        <source>Edit sharer %1</source>
        <translation>Modifier le partageur %1</translation>
    </message>
    <message>
        <source>e.g. work key</source>
        <translation>p. ex. clé du bureau</translation>
    </message>
    <message>
        <source>Custom, OpenAI-compatible…</source>
        <translation>Personnalisé, compatible OpenAI…</translation>
    </message>
    <message>
        <source>Custom, Anthropic-compatible…</source>
        <translation>Personnalisé, compatible Anthropic…</translation>
    </message>
    <message>
        <source>a short id, e.g. myco: model names read myco/model</source>
        <translation>un identifiant court, p. ex. myco&#xa0;: les modèles s’écrivent myco/modèle</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>Clé d’API</translation>
    </message>
    <message>
        <source>Subscription</source>
        <translation>Abonnement</translation>
    </message>
    <message>
        <source>List price</source>
        <translation>Prix catalogue</translation>
    </message>
    <message>
        <source>Percent of list</source>
        <translation>Pourcentage du catalogue</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>Input $/Mtok</source>
        <translation>Entrée $/Mjeton</translation>
    </message>
    <message>
        <source>Output $/Mtok</source>
        <translation>Sortie $/Mjeton</translation>
    </message>
    <message>
        <source>Add &amp;quote</source>
        <translation>A&amp;jouter un tarif</translation>
    </message>
    <message>
        <source>Add quote</source>
        <translation>Ajouter un tarif</translation>
    </message>
    <message>
        <source>Remove q&amp;uote</source>
        <translation>Retirer &amp;le tarif</translation>
    </message>
    <message>
        <source>Remove quote</source>
        <translation>Retirer le tarif</translation>
    </message>
    <message>
        <source>comma-separated; empty: the provider&apos;s whole catalogue</source>
        <translation>séparés par des virgules&#xa0;; vide&#xa0;: tout le catalogue du fournisseur</translation>
    </message>
    <message>
        <source>unbounded</source>
        <translation>illimité</translation>
    </message>
    <message>
        <source>The provider&apos;s policy</source>
        <translation>La règle du fournisseur</translation>
    </message>
    <message>
        <source>Denies training on prompts</source>
        <translation>Refuse l’entraînement sur les requêtes</translation>
    </message>
    <message>
        <source>Allows training on prompts</source>
        <translation>Autorise l’entraînement sur les requêtes</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Inconnue</translation>
    </message>
    <message>
        <source>API key or token, or env:VARIABLE</source>
        <translation>Clé d’API ou jeton, ou env:VARIABLE</translation>
    </message>
    <message>
        <source>unchanged (use Re-link to replace it)</source>
        <translation>inchangé (Relier de nouveau pour le remplacer)</translation>
    </message>
    <message>
        <source>Start Aile with --secrets-file FILE to opt in to a plain-text secrets file</source>
        <translation>Lancez Aile avec --secrets-file FICHIER pour accepter un fichier de secrets en clair</translation>
    </message>
    <message>
        <source>The secrets file: %1</source>
        <translation>Le fichier de secrets&#xa0;: %1</translation>
    </message>
    <message>
        <source>No keychain answers on this system, so a typed credential cannot be stored and nothing is written in plain text. Name an environment variable (env:NAME), start a keychain, or start Aile with --secrets-file FILE.</source>
        <translation>Aucun trousseau ne répond sur ce système&#xa0;: un identifiant secret saisi ne peut pas être enregistré, et rien n’est écrit en clair. Nommez une variable d’environnement (env:NOM), démarrez un trousseau, ou lancez Aile avec --secrets-file FICHIER.</translation>
    </message>
    <message>
        <source>No keychain answers on this system: a typed credential can only go to the plain-text secrets file.</source>
        <translation>Aucun trousseau ne répond sur ce système&#xa0;: un identifiant secret saisi ne peut aller que dans le fichier de secrets en clair.</translation>
    </message>
    <message>
        <source>A typed credential is stored in the system keychain, never in the configuration.</source>
        <translation>Un identifiant secret saisi est enregistré dans le trousseau du système, jamais dans la configuration.</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>&amp;Ajouter</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>En&amp;registrer</translation>
    </message>
    <message>
        <source>Save sharer</source>
        <translation>Enregistrer le partageur</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <source>&amp;Handle:</source>
        <translation>&amp;Identifiant&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Nom&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Provider:</source>
        <translation>&amp;Fournisseur&#xa0;:</translation>
    </message>
    <message>
        <source>Provider &amp;id:</source>
        <translation>I&amp;dentifiant du fournisseur&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Base URL:</source>
        <translation>&amp;URL de base&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Kind:</source>
        <translation>T&amp;ype&#xa0;:</translation>
    </message>
    <message>
        <source>P&amp;rice:</source>
        <translation>&amp;Prix&#xa0;:</translation>
    </message>
    <message>
        <source>Percen&amp;t of list:</source>
        <translation>Pourcen&amp;tage du catalogue&#xa0;:</translation>
    </message>
    <message>
        <source>Quotes:</source>
        <translation>Tarifs&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Models offered:</source>
        <translation>&amp;Modèles proposés&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Slots:</source>
        <translation>Requêtes &amp;simultanées&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Data collection:</source>
        <translation>&amp;Collecte des données&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Credential:</source>
        <translation>Identifiant s&amp;ecret&#xa0;:</translation>
    </message>
    <message>
        <source>required: scheme and host, e.g. http://localhost:8080</source>
        <translation>obligatoire&#xa0;: schéma et hôte, p. ex. http://localhost:8080</translation>
    </message>
    <message>
        <source>required for this provider</source>
        <translation>obligatoire pour ce fournisseur</translation>
    </message>
    <message>
        <source>the provider&apos;s: %1</source>
        <translation>celle du fournisseur&#xa0;: %1</translation>
    </message>
    <message>
        <source>optional: L and 16 hex digits</source>
        <translation>facultatif&#xa0;: L et 16 chiffres hexadécimaux</translation>
    </message>
    <message>
        <source>Left empty, the engine derives one from the provider, the name and the base URL</source>
        <translation>Laissé vide, le moteur le déduit du fournisseur, du nom et de l’URL de base</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::SharerOrderModel</name>
    <message>
        <source>unavailable: %1</source>
        <translation>indisponible&#xa0;: %1</translation>
    </message>
    <message>
        <source>dead key</source>
        <translation>clé morte</translation>
    </message>
    <message>
        <source>available, tied with the row above</source>
        <translation>disponible, à égalité avec la ligne du dessus</translation>
    </message>
    <message>
        <source>available</source>
        <translation>disponible</translation>
    </message>
    <message>
        <source>own quotes</source>
        <translation>tarifs propres</translation>
    </message>
    <message>
        <source>list price</source>
        <translation>prix catalogue</translation>
    </message>
    <message>
        <source>%1% of list</source>
        <translation>%1&#xa0;% du catalogue</translation>
    </message>
    <message>
        <source>keychain</source>
        <translation>trousseau</translation>
    </message>
    <message>
        <source>stored in a file</source>
        <translation>dans un fichier</translation>
    </message>
    <message>
        <source>environment variable</source>
        <translation>variable d’environnement</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>tested</source>
        <translation>testé</translation>
    </message>
    <message>
        <source>not tested</source>
        <translation>non testé</translation>
    </message>
    <message>
        <source>%1, not readable</source>
        <translation>%1, illisible</translation>
    </message>
    <message>
        <source>No model was tested on this sharer yet</source>
        <translation>Aucun modèle n’a encore été testé sur ce partageur</translation>
    </message>
    <message>
        <source>Models tested on this sharer: %1</source>
        <translation>Modèles testés sur ce partageur&#xa0;: %1</translation>
    </message>
    <message>
        <source>Stored in plain text in the secrets file (mode 0600, readable only by you), because you opted in; the keychain is safer</source>
        <translation>Enregistré en clair dans le fichier de secrets (mode 0600, lisible par vous seul), parce que vous l’avez accepté&#xa0;; le trousseau est plus sûr</translation>
    </message>
    <message>
        <source>Stored in the system keychain</source>
        <translation>Enregistré dans le trousseau du système</translation>
    </message>
    <message>
        <source>Read from an environment variable when the proxy starts</source>
        <translation>Lu dans une variable d’environnement au démarrage du proxy</translation>
    </message>
    <message>
        <source>This sharer has no credential</source>
        <translation>Ce partageur n’a pas d’identifiant secret</translation>
    </message>
    <message>
        <source>Not readable: %1</source>
        <translation>Illisible&#xa0;: %1</translation>
    </message>
    <message>
        <source>Click to show the routing order again</source>
        <translation>Cliquer pour revenir à l’ordre de routage</translation>
    </message>
    <message>
        <source>Click to sort: a reading order, not the routing order</source>
        <translation>Cliquer pour trier&#xa0;: un ordre de lecture, pas l’ordre de routage</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rang</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>Handle</source>
        <translation>Identifiant</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Fournisseur</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>Prix</translation>
    </message>
    <message>
        <source>Input $/Mtok</source>
        <translation>Entrée $/Mjeton</translation>
    </message>
    <message>
        <source>Output $/Mtok</source>
        <translation>Sortie $/Mjeton</translation>
    </message>
    <message>
        <source>Quote</source>
        <translation>Devis</translation>
    </message>
    <message>
        <source>Tested</source>
        <translation>Testé</translation>
    </message>
    <message>
        <source>First byte</source>
        <translation>Premier octet</translation>
    </message>
    <message>
        <source>Credential</source>
        <translation>Identifiant secret</translation>
    </message>
    <message>
        <source>State</source>
        <translation>État</translation>
    </message>
    <message>
        <source>blocked</source>
        <translation>bloqué</translation>
    </message>
    <message>
        <source>no usable credential</source>
        <translation>aucun identifiant secret utilisable</translation>
    </message>
    <message>
        <source>cooling down</source>
        <translation>en pause après des échecs</translation>
    </message>
    <message>
        <source>degraded: after the available sharers</source>
        <translation>dégradé&#xa0;: après les partageurs disponibles</translation>
    </message>
    <message>
        <source>%1 used up</source>
        <translation>%1 épuisé</translation>
    </message>
    <message>
        <source>%1 used up, resets %2</source>
        <translation>%1 épuisé, renouvelé à&#xa0;%2</translation>
    </message>
    <message>
        <source>%1 %2% used</source>
        <translation>%1 utilisé à&#xa0;%2&#xa0;%</translation>
    </message>
    <message>
        <source>%1 %2% used, resets %3</source>
        <translation>%1 utilisé à&#xa0;%2&#xa0;%, renouvelé à&#xa0;%3</translation>
    </message>
    <message>
        <source>%1 (older than 10 min)</source>
        <translation>%1 (plus de 10 min)</translation>
    </message>
    <message>
        <source>not enough data (%1/%2 served)</source>
        <translation>pas assez de données (%1/%2 servies)</translation>
    </message>
    <message>
        <source>no requests in 30 min</source>
        <translation>aucune requête en 30 min</translation>
    </message>
    <message>
        <source>%1% ok, %2 (30 min)</source>
        <translation>%1&#xa0;% réussies,&#xa0;%2 (30 min)</translation>
    </message>
    <message>
        <source>%1% ok (30 min)</source>
        <translation>%1&#xa0;% réussies (30 min)</translation>
    </message>
    <message>
        <source>Priority tier: higher tiers are tried first, whatever the price; a lower tier only when they fail</source>
        <translation>Niveau de priorité&#xa0;: les niveaux les plus hauts sont essayés d’abord, quel que soit le prix&#xa0;; un niveau plus bas seulement quand ils échouent</translation>
    </message>
    <message>
        <source>Share of the draw among sharers of the same price and tier; 0 leaves it out unless named</source>
        <translation>Part du tirage entre partageurs de même prix et de même niveau&#xa0;; 0 l’écarte, sauf s’il est nommé</translation>
    </message>
    <message>
        <source>The windows its provider reported on its last answer; a window used up with a known reset takes the sharer out until then, and a report older than 10 minutes takes nobody out</source>
        <translation>Les fenêtres que son fournisseur a indiquées dans sa dernière réponse&#xa0;; une fenêtre épuisée dont le renouvellement est connu écarte le partageur jusque-là, et un relevé de plus de 10 minutes n’écarte personne</translation>
    </message>
    <message>
        <source>Success rate and time to first byte over the last 30 minutes, published once the sharer has served 100 requests</source>
        <translation>Taux de réussite et délai du premier octet sur les 30 dernières minutes, publiés dès que le partageur a servi 100 requêtes</translation>
    </message>
    <message>
        <source>Priority</source>
        <translation>Priorité</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>Poids</translation>
    </message>
    <message>
        <source>Quota</source>
        <translation>Quota</translation>
    </message>
    <message>
        <source>Health</source>
        <translation>Santé</translation>
    </message>
    <message>
        <source>needs its key again</source>
        <translation>sa clé doit être redonnée</translation>
    </message>
    <message>
        <source>Its provider or base URL changed after the credential was entered, so the credential is not sent there; re-link it with its key</source>
        <translation>Son fournisseur ou son URL de base a changé depuis la saisie de l’identifiant, qui n’y est donc pas envoyé&#xa0;; reliez-le de nouveau avec sa clé</translation>
    </message>
    <message>
        <source>the tool&apos;s own login</source>
        <translation>la connexion propre de l&apos;outil</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::SharersView</name>
    <message>
        <source>Sharers</source>
        <translation>Partageurs</translation>
    </message>
    <message>
        <source>the engine answered HTTP %1</source>
        <translation>le moteur a répondu HTTP %1</translation>
    </message>
    <message>
        <source>&amp;Verified only</source>
        <translation>&amp;Vérifiés seulement</translation>
    </message>
    <message>
        <source>&amp;Add sharer…</source>
        <translation>&amp;Ajouter un partageur…</translation>
    </message>
    <message>
        <source>Add sharer</source>
        <translation>Ajouter un partageur</translation>
    </message>
    <message>
        <source>&amp;Edit…</source>
        <translation>Mo&amp;difier…</translation>
    </message>
    <message>
        <source>Edit sharer</source>
        <translation>Modifier le partageur</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>&amp;Retirer</translation>
    </message>
    <message>
        <source>Remove sharer</source>
        <translation>Retirer le partageur</translation>
    </message>
    <message>
        <source>Re-&amp;link…</source>
        <translation>Re&amp;lier…</translation>
    </message>
    <message>
        <source>Re-link sharer</source>
        <translation>Relier de nouveau le partageur</translation>
    </message>
    <message>
        <source>&amp;Test model…</source>
        <translation>&amp;Tester un modèle…</translation>
    </message>
    <message>
        <source>Test model</source>
        <translation>Tester un modèle</translation>
    </message>
    <message>
        <source>&amp;Probe</source>
        <translation>&amp;Sonder</translation>
    </message>
    <message>
        <source>Probe sharer</source>
        <translation>Sonder le partageur</translation>
    </message>
    <message>
        <source>provider/model, e.g. openai/gpt-5.2</source>
        <translation>fournisseur/modèle, p. ex. openai/gpt-5.2</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <source>Name a model to see the order its requests route in</source>
        <translation>Nommez un modèle pour voir l’ordre dans lequel ses requêtes sont routées</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Fournisseur</translation>
    </message>
    <message>
        <source>Only the sharers of one provider</source>
        <translation>Seulement les partageurs d’un fournisseur</translation>
    </message>
    <message>
        <source>Any provider</source>
        <translation>Tout fournisseur</translation>
    </message>
    <message>
        <source>Maximum price</source>
        <translation>Prix maximal</translation>
    </message>
    <message>
        <source>As the x-aile-max-price request header</source>
        <translation>Comme l’en-tête de requête x-aile-max-price</translation>
    </message>
    <message>
        <source>Minimum price</source>
        <translation>Prix minimal</translation>
    </message>
    <message>
        <source>As the x-aile-min-price request header</source>
        <translation>Comme l’en-tête de requête x-aile-min-price</translation>
    </message>
    <message>
        <source>Verified only</source>
        <translation>Vérifiés seulement</translation>
    </message>
    <message>
        <source>As the x-aile-verified request header</source>
        <translation>Comme l’en-tête de requête x-aile-verified</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>&amp;Modèle&#xa0;:</translation>
    </message>
    <message>
        <source>Pro&amp;vider:</source>
        <translation>&amp;Fournisseur&#xa0;:</translation>
    </message>
    <message>
        <source>Ma&amp;x price:</source>
        <translation>Pri&amp;x max.&#xa0;:</translation>
    </message>
    <message>
        <source>Mi&amp;n price:</source>
        <translation>Prix mi&amp;n.&#xa0;:</translation>
    </message>
    <message>
        <source>The upstream accounts the proxy can dial, in the order requests route to them</source>
        <translation>Les comptes amont que le proxy peut appeler, dans l’ordre où les requêtes leur sont routées</translation>
    </message>
    <message>
        <source>Keychain</source>
        <translation>Trousseau</translation>
    </message>
    <message>
        <source>Last sharer action</source>
        <translation>Dernière action sur un partageur</translation>
    </message>
    <message>
        <source>Sharers listing order</source>
        <translation>Ordre de la liste des partageurs</translation>
    </message>
    <message>
        <source>The engine did not list the sharers: %1</source>
        <translation>Le moteur n’a pas listé les partageurs&#xa0;: %1</translation>
    </message>
    <message>
        <source>%1. Click the Rank column for the routing order.</source>
        <translation>%1. Cliquez sur la colonne Rang pour l’ordre de routage.</translation>
    </message>
    <message>
        <source>Added %1 (%2).</source>
        <translation>%1 ajouté (%2).</translation>
    </message>
    <message>
        <source>Saved %1 (%2).</source>
        <translation>%1 enregistré (%2).</translation>
    </message>
    <message>
        <source>Remove the sharer %1? The credential the app stored for it is removed too.</source>
        <translation>Retirer le partageur %1&#xa0;? L’identifiant secret que l’application a enregistré pour lui est retiré aussi.</translation>
    </message>
    <message>
        <source>Removed %1.</source>
        <translation>%1 retiré.</translation>
    </message>
    <message>
        <source>Not removed: %1</source>
        <translation>Non retiré&#xa0;: %1</translation>
    </message>
    <message>
        <source>A new credential for %1 (stored in the plain-text secrets file), or env:VARIABLE:</source>
        <translation>Un nouvel identifiant secret pour %1 (enregistré dans le fichier de secrets en clair), ou env:VARIABLE&#xa0;:</translation>
    </message>
    <message>
        <source>A new credential for %1 (stored in the keychain), or env:VARIABLE:</source>
        <translation>Un nouvel identifiant secret pour %1 (enregistré dans le trousseau), ou env:VARIABLE&#xa0;:</translation>
    </message>
    <message>
        <source>Re-linked %1.</source>
        <translation>%1 relié de nouveau.</translation>
    </message>
    <message>
        <source>Not re-linked: %1</source>
        <translation>Non relié&#xa0;: %1</translation>
    </message>
    <message>
        <source>Model to test on %1:</source>
        <translation>Modèle à tester sur %1&#xa0;:</translation>
    </message>
    <message>
        <source>Testing %1 on %2…</source>
        <translation>Test de %1 sur %2…</translation>
    </message>
    <message>
        <source>Test of %1 on %2 not run: %3</source>
        <translation>Test de %1 sur %2 non lancé&#xa0;: %3</translation>
    </message>
    <message>
        <source>Test of %1 on %2 passed: %3</source>
        <translation>Test de %1 sur %2 réussi&#xa0;: %3</translation>
    </message>
    <message>
        <source>Test of %1 on %2 failed: %3</source>
        <translation>Test de %1 sur %2 échoué&#xa0;: %3</translation>
    </message>
    <message>
        <source>Probing %1…</source>
        <translation>Sondage de %1…</translation>
    </message>
    <message>
        <source>Probe of %1 not run: %2</source>
        <translation>Sondage de %1 non lancé&#xa0;: %2</translation>
    </message>
    <message>
        <source>Probe of %1 passed: %2</source>
        <translation>Sondage de %1 réussi&#xa0;: %2</translation>
    </message>
    <message>
        <source>Probe of %1 failed: %2</source>
        <translation>Sondage de %1 échoué&#xa0;: %2</translation>
    </message>
    <message>
        <source>No keychain answers on this system.</source>
        <translation>Aucun trousseau ne répond sur ce système.</translation>
    </message>
    <message>
        <source>The keychain did not answer: %1.</source>
        <translation>Le trousseau n’a pas répondu&#xa0;: %1.</translation>
    </message>
    <message>
        <source>Credentials typed here cannot be stored, and nothing is written in plain text. Start a keychain (GNOME Keyring, KeePassXC, KWallet), name an environment variable as the credential (env:NAME), or opt in to a plain-text secrets file by starting Aile with --secrets-file FILE.</source>
        <translation>Les identifiants secrets saisis ici ne peuvent pas être enregistrés, et rien n’est écrit en clair. Démarrez un trousseau (GNOME Keyring, KeePassXC, KWallet), nommez une variable d’environnement comme identifiant secret (env:NOM), ou acceptez un fichier de secrets en clair en lançant Aile avec --secrets-file FICHIER.</translation>
    </message>
    <message>
        <source>You opted in to the plain-text secrets file %1 (mode 0600, readable only by you): credentials typed here go there, and the list marks them “stored in a file”.</source>
        <translation>Vous avez accepté le fichier de secrets en clair %1 (mode 0600, lisible par vous seul)&#xa0;: les identifiants secrets saisis ici y vont, et la liste les marque «&#xa0;dans un fichier&#xa0;».</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::StatusBanner</name>
    <message>
        <source>Proxy status</source>
        <translation>État du proxy</translation>
    </message>
    <message>
        <source>Spent today</source>
        <translation>Dépensé aujourd’hui</translation>
    </message>
    <message>
        <source>Proxy state</source>
        <translation>État du proxy</translation>
    </message>
    <message>
        <source>Proxy starting…</source>
        <translation>Démarrage du proxy…</translation>
    </message>
    <message>
        <source>Proxy listening on %1</source>
        <translation>Proxy à l’écoute sur %1</translation>
    </message>
    <message>
        <source>Proxy failed to start: %1</source>
        <translation>Le proxy n’a pas pu démarrer&#xa0;: %1</translation>
    </message>
    <message>
        <source>Proxy stopping…</source>
        <translation>Arrêt du proxy…</translation>
    </message>
    <message>
        <source>Today: %1</source>
        <translation>Aujourd’hui&#xa0;: %1</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::SubscriptionWatch</name>
    <message>
        <source>$%1 in / $%2 out per Mtok</source>
        <translation>%1 $ en entrée / %2 $ en sortie par Mtok</translation>
    </message>
    <message>
        <source>%1% of list price</source>
        <translation>%1 % du prix catalogue</translation>
    </message>
    <message>
        <source>its own prices</source>
        <translation>ses propres prix</translation>
    </message>
    <message>
        <source>list price</source>
        <translation>prix catalogue</translation>
    </message>
    <message>
        <source>now</source>
        <translation>maintenant</translation>
    </message>
    <message>
        <source>in %1 min</source>
        <translation>dans %1 min</translation>
    </message>
    <message>
        <source>in %1 h %2 min</source>
        <translation>dans %1 h %2 min</translation>
    </message>
    <message>
        <source>in %1 d %2 h</source>
        <translation>dans %1 j %2 h</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 used up, back %2</source>
        <translation>%1 épuisée, de retour %2</translation>
    </message>
    <message>
        <source>%1 %2%, resets %3</source>
        <translation>%1 %2 %, réinitialisée %3</translation>
    </message>
    <message>
        <source>%1 %2%</source>
        <translation>%1 %2 %</translation>
    </message>
    <message>
        <source>%1 is used up</source>
        <translation>%1 est épuisé</translation>
    </message>
    <message>
        <source>Its %1 window is used up.</source>
        <translation>Sa fenêtre %1 est épuisée.</translation>
    </message>
    <message>
        <source>Its %1 window is used up until %2.</source>
        <translation>Sa fenêtre %1 est épuisée jusqu&apos;à %2.</translation>
    </message>
    <message>
        <source>No other sharer of %1 can take its requests; they are refused until it resets.</source>
        <translation>Aucun autre partageur de %1 ne peut prendre ses requêtes ; elles sont refusées jusqu&apos;à sa réinitialisation.</translation>
    </message>
    <message>
        <source>Requests move to %1 until it resets.</source>
        <translation>Les requêtes passent à %1 jusqu&apos;à sa réinitialisation.</translation>
    </message>
    <message>
        <source>%1 is back</source>
        <translation>%1 est de retour</translation>
    </message>
    <message>
        <source>Its %1 window reset; requests go to it again.</source>
        <translation>Sa fenêtre %1 est réinitialisée ; les requêtes y retournent.</translation>
    </message>
    <message>
        <source>%1: %2 window at %3%</source>
        <translation>%1 : fenêtre %2 à %3 %</translation>
    </message>
    <message>
        <source>It resets %1.</source>
        <translation>Elle se réinitialise %1.</translation>
    </message>
    <message>
        <source>When it runs out, requests move to the next sharer.</source>
        <translation>Quand elle sera épuisée, les requêtes passeront au partageur suivant.</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Claude Code</source>
        <translation>Claude Code</translation>
    </message>
    <message>
        <source>Codex</source>
        <translation>Codex</translation>
    </message>
    <message>
        <source>%1&apos;s next request → %2</source>
        <translation>Prochaine requête de %1 → %2</translation>
    </message>
    <message>
        <source>%1 (subscription)</source>
        <translation>%1 (abonnement)</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::TeamServerDialog</name>
    <message>
        <source>Connect to a team server</source>
        <translation>Se connecter à un serveur d&apos;équipe</translation>
    </message>
    <message>
        <source>the server&apos;s admin token</source>
        <translation>le jeton d&apos;administration du serveur</translation>
    </message>
    <message>
        <source>The window shows the team server&apos;s sharers, keys, routes and traces instead of this computer&apos;s. The token is kept in your keychain.</source>
        <translation>La fenêtre montre les partageurs, clés, routes et traces du serveur d&apos;équipe au lieu de ceux de cet ordinateur. Le jeton est gardé dans votre trousseau.</translation>
    </message>
    <message>
        <source>&amp;Address:</source>
        <translation>&amp;Adresse :</translation>
    </message>
    <message>
        <source>Admin &amp;token:</source>
        <translation>&amp;Jeton d&apos;administration :</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>Se &amp;connecter</translation>
    </message>
    <message>
        <source>Give the server&apos;s address as https://host[:port].</source>
        <translation>Donnez l&apos;adresse du serveur sous la forme https://hôte[:port].</translation>
    </message>
    <message>
        <source>%1 is plain http://, which would send the admin token unencrypted; use https:// (TLS in front of the team server).</source>
        <translation>%1 est en http:// simple, qui enverrait le jeton d&apos;administration en clair ; utilisez https:// (TLS devant le serveur d&apos;équipe).</translation>
    </message>
    <message>
        <source>Paste the server&apos;s admin token (its administrator has it).</source>
        <translation>Collez le jeton d&apos;administration du serveur (son administrateur l&apos;a).</translation>
    </message>
    <message>
        <source>Checking %1…</source>
        <translation>Vérification de %1…</translation>
    </message>
    <message>
        <source>The server refused the token: %1</source>
        <translation>Le serveur a refusé le jeton : %1</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::TraceColumns</name>
    <message>
        <source>Time</source>
        <translation>Heure</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Clé</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Outil</translation>
    </message>
    <message>
        <source>Model asked</source>
        <translation>Modèle demandé</translation>
    </message>
    <message>
        <source>Model served</source>
        <translation>Modèle servi</translation>
    </message>
    <message>
        <source>Route</source>
        <translation>Route</translation>
    </message>
    <message>
        <source>Sharer</source>
        <translation>Partageur</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Statut</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Tentatives</translation>
    </message>
    <message>
        <source>First token</source>
        <translation>Premier jeton</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Durée</translation>
    </message>
    <message>
        <source>Tokens in</source>
        <translation>Jetons entrée</translation>
    </message>
    <message>
        <source>Tokens out</source>
        <translation>Jetons sortie</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>Coût</translation>
    </message>
    <message>
        <source>Affinity</source>
        <translation>Affinité</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::TraceDetailPane</name>
    <message>
        <source>Selected trace</source>
        <translation>Trace sélectionnée</translation>
    </message>
    <message>
        <source>Attempts of the selected trace</source>
        <translation>Tentatives de la trace sélectionnée</translation>
    </message>
    <message>
        <source>#</source>
        <translation>n°</translation>
    </message>
    <message>
        <source>Sharer</source>
        <translation>Partageur</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Statut</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Issue</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Raison</translation>
    </message>
    <message>
        <source>First byte</source>
        <translation>Premier octet</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Durée</translation>
    </message>
    <message>
        <source>Tokens in/out</source>
        <translation>Jetons entrée/sortie</translation>
    </message>
    <message>
        <source>Quote</source>
        <translation>Devis</translation>
    </message>
    <message>
        <source>Select a trace to see its attempts.</source>
        <translation>Sélectionnez une trace pour voir ses tentatives.</translation>
    </message>
    <message>
        <source>%1 · %2 · key %3 · %4</source>
        <translation>%1 · %2 · clé %3 · %4</translation>
    </message>
    <message>
        <source>%1 (route %2)</source>
        <translation>%1 (route %2)</translation>
    </message>
    <message>
        <source>Tokens %1 in, %2 out · cost %3 · affinity %4%5</source>
        <translation>Jetons %1 en entrée, %2 en sortie · coût %3 · affinité %4%5</translation>
    </message>
    <message>
        <source> · streamed</source>
        <translation> · en flux</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>Erreur&#xa0;: %1</translation>
    </message>
    <message>
        <source>not dialled</source>
        <translation>non appelé</translation>
    </message>
    <message>
        <source>Model %1 · status %2 · attempts %3 · first token %4 · total %5</source>
        <translation>Modèle %1 · statut %2 · tentatives %3 · premier jeton %4 · total %5</translation>
    </message>
    <message>
        <source>Conversation pinned to %1 by %2, until %3</source>
        <translation>Conversation épinglée sur %1 par %2, jusqu&apos;à %3</translation>
    </message>
    <message>
        <source> · found by %1</source>
        <translation> · trouvée par %1</translation>
    </message>
    <message>
        <source>&amp;Why this sharer?</source>
        <translation>&amp;Pourquoi ce partageur&#xa0;?</translation>
    </message>
    <message>
        <source>Why this sharer?</source>
        <translation>Pourquoi ce partageur&#xa0;?</translation>
    </message>
    <message>
        <source>Why this sharer</source>
        <translation>Pourquoi ce partageur</translation>
    </message>
    <message>
        <source>What the action did</source>
        <translation>Ce qu’a fait l’action</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Action</translation>
    </message>
    <message>
        <source>%1 for %2</source>
        <translation>%1 pour %2</translation>
    </message>
    <message>
        <source>%1 on %2…</source>
        <translation>%1 sur %2…</translation>
    </message>
    <message>
        <source>The key&apos;s routing is open on the setting that refused %1.</source>
        <translation>Le routage de la clé est ouvert sur le réglage qui a écarté %1.</translation>
    </message>
    <message>
        <source>The request&apos;s own header refused %1; the key&apos;s routing is open.</source>
        <translation>Un en-tête de la requête elle-même a écarté %1&#xa0;; le routage de la clé est ouvert.</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::TraceExport</name>
    <message>
        <source>cannot write %1: %2</source>
        <translation>impossible d’écrire %1&#xa0;: %2</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::TraceFilterBar</name>
    <message>
        <source>Filter by key</source>
        <translation>Filtrer par clé</translation>
    </message>
    <message>
        <source>Filter by model</source>
        <translation>Filtrer par modèle</translation>
    </message>
    <message>
        <source>Filter by status</source>
        <translation>Filtrer par statut</translation>
    </message>
    <message>
        <source>Filter by sharer</source>
        <translation>Filtrer par partageur</translation>
    </message>
    <message>
        <source>C&amp;lear</source>
        <translation>&amp;Effacer</translation>
    </message>
    <message>
        <source>Any model</source>
        <translation>Tout modèle</translation>
    </message>
    <message>
        <source>Model filter text</source>
        <translation>Texte du filtre de modèle</translation>
    </message>
    <message>
        <source>Any status</source>
        <translation>Tout statut</translation>
    </message>
    <message>
        <source>Search model, route, sharer, key, error</source>
        <translation>Chercher modèle, route, partageur, clé, erreur</translation>
    </message>
    <message>
        <source>Search traces</source>
        <translation>Rechercher dans les traces</translation>
    </message>
    <message>
        <source>Clear the filters</source>
        <translation>Effacer les filtres</translation>
    </message>
    <message>
        <source>&amp;Key:</source>
        <translation>&amp;Clé&#xa0;:</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>&amp;Modèle&#xa0;:</translation>
    </message>
    <message>
        <source>Stat&amp;us:</source>
        <translation>Stat&amp;ut&#xa0;:</translation>
    </message>
    <message>
        <source>Sha&amp;rer:</source>
        <translation>Pa&amp;rtageur&#xa0;:</translation>
    </message>
    <message>
        <source>Sear&amp;ch:</source>
        <translation>Rec&amp;hercher&#xa0;:</translation>
    </message>
    <message>
        <source>Any key</source>
        <translation>Toute clé</translation>
    </message>
    <message>
        <source>Any sharer</source>
        <translation>Tout partageur</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::TracesView</name>
    <message>
        <source>E&amp;xport…</source>
        <translation>E&amp;xporter…</translation>
    </message>
    <message>
        <source>Traces</source>
        <translation>Traces</translation>
    </message>
    <message>
        <source>One row per request, newest first</source>
        <translation>Une ligne par requête, la plus récente en haut</translation>
    </message>
    <message>
        <source>Number of traces</source>
        <translation>Nombre de traces</translation>
    </message>
    <message>
        <source>Export the filtered traces</source>
        <translation>Exporter les traces filtrées</translation>
    </message>
    <message>
        <source>Save the filtered traces as JSON or CSV</source>
        <translation>Enregistrer les traces filtrées en JSON ou CSV</translation>
    </message>
    <message>
        <source>%1 of %2 traces loaded; scroll for more</source>
        <translation>%1 traces chargées sur %2&#xa0;; faites défiler pour en voir plus</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export traces</source>
        <translation>Exporter les traces</translation>
    </message>
    <message>
        <source>Exporting…</source>
        <translation>Export en cours…</translation>
    </message>
    <message>
        <source>Traces: %1</source>
        <translation>Traces&#xa0;: %1</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::TrayIcon</name>
    <message>
        <source>Show Aile</source>
        <translation>Afficher Aile</translation>
    </message>
    <message>
        <source>Connect a tool…</source>
        <translation>Connecter un outil…</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Quitter</translation>
    </message>
    <message>
        <source>Proxy starting…</source>
        <translation>Démarrage du proxy…</translation>
    </message>
    <message>
        <source>Spent today: %1</source>
        <translation>Dépensé aujourd’hui&#xa0;: %1</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::ApplySettingsDialog</name>
    <message>
        <source>Apply settings for %1</source>
        <translation>Appliquer les réglages pour %1</translation>
    </message>
    <message>
        <source>Restore the settings of %1</source>
        <translation>Rétablir les réglages de %1</translation>
    </message>
    <message>
        <source>Aile will change %1 as shown below, and only Aile&apos;s own part of it. The file will hold your Aile key in full, as the tool needs it: that is what you are asking for (the preview shows only the key&apos;s start). The file as it is now is kept in %2, and &quot;Restore previous settings&quot; puts it back.</source>
        <translation>Aile va modifier %1 comme ci-dessous, et seulement la partie qui est la sienne. Le fichier contiendra votre clé Aile en entier, car l’outil en a besoin&#xa0;: c’est ce que vous demandez (l’aperçu n’en montre que le début). Le fichier tel qu’il est maintenant est gardé dans %2, et «&#xa0;Rétablir les réglages précédents&#xa0;» le remet en place.</translation>
    </message>
    <message>
        <source>Aile will put %1 back as it was before Aile changed it, as shown below.</source>
        <translation>Aile va remettre %1 tel qu’il était avant qu’Aile le modifie, comme ci-dessous.</translation>
    </message>
    <message>
        <source>The change to the file</source>
        <translation>La modification du fichier</translation>
    </message>
    <message>
        <source>&amp;Write the file</source>
        <translation>&amp;Écrire le fichier</translation>
    </message>
    <message>
        <source>&amp;Restore the file</source>
        <translation>&amp;Rétablir le fichier</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::AttemptActions</name>
    <message>
        <source>Clear cooldown</source>
        <translation>Lever la pause</translation>
    </message>
    <message>
        <source>Open the key&apos;s routing…</source>
        <translation>Ouvrir le routage de la clé…</translation>
    </message>
    <message>
        <source>Mark key fixed and probe</source>
        <translation>Marquer la clé réparée et la sonder</translation>
    </message>
    <message>
        <source>Re-test the model</source>
        <translation>Retester le modèle</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 answered %2 (%3)</source>
        <translation>%1 a répondu %2 (%3)</translation>
    </message>
    <message>
        <source>%1 served this request (%2).</source>
        <translation>%1 a servi cette requête (%2).</translation>
    </message>
    <message>
        <source>No sharer served this request.</source>
        <translation>Aucun partageur n’a servi cette requête.</translation>
    </message>
    <message>
        <source>The conversation is pinned to it (evidence: %1), so it was tried first.</source>
        <translation>La conversation lui est attachée (indices&#xa0;: %1), il a donc été essayé en premier.</translation>
    </message>
    <message>
        <source>Removed before any dial: %1.</source>
        <translation>Écartés avant tout appel&#xa0;: %1.</translation>
    </message>
    <message>
        <source>Tried before it: %1.</source>
        <translation>Essayés avant lui&#xa0;: %1.</translation>
    </message>
    <message>
        <source>The key orders by speed: the fastest measured sharer first.</source>
        <translation>La clé ordonne par vitesse&#xa0;: le partageur mesuré le plus rapide d’abord.</translation>
    </message>
    <message>
        <source>It was quoted %1 for this request.</source>
        <translation>Il était coté %1 pour cette requête.</translation>
    </message>
    <message>
        <source>The trace does not record the tier or the tie draw that ordered the remaining candidates.</source>
        <translation>La trace n’enregistre pas le palier ni le tirage entre ex aequo qui ont ordonné les autres candidats.</translation>
    </message>
    <message>
        <source>It was in tier %1 and ranked %2 of %3 candidates%4.</source>
        <translation>Il était au palier %1, classé %2 sur %3 candidats%4.</translation>
    </message>
    <message>
        <source>, having passed a test of the model</source>
        <translation>, après avoir réussi un test du modèle</translation>
    </message>
    <message>
        <source>No other candidate shared its tier, standing and price, so no draw was needed.</source>
        <translation>Aucun autre candidat ne partageait son palier, son état et son prix&#xa0;: aucun tirage n’a été nécessaire.</translation>
    </message>
    <message>
        <source>It tied with %1 on tier, standing and price; a weighted draw (its weight %2, health factor %3) set their order.</source>
        <translation>Il était ex aequo avec %1 en palier, état et prix&#xa0;; un tirage pondéré (son poids %2, facteur de santé %3) a fixé leur ordre.</translation>
    </message>
    <message>
        <source>It tied with %1 on tier, standing and price; tested sharers came first.</source>
        <translation>Il était ex aequo avec %1 en palier, état et prix&#xa0;; les partageurs testés sont passés d’abord.</translation>
    </message>
    <message>
        <source>It was marked dead or degraded, so it came after every healthy candidate.</source>
        <translation>Il était marqué mort ou dégradé&#xa0;: il est passé après tous les candidats en bonne santé.</translation>
    </message>
</context>
<context>
    <name>Aile::Ui::PlanValueChart</name>
    <message>
        <source>Money spent (API keys)</source>
        <translation>Argent dépensé (clés d’API)</translation>
    </message>
    <message>
        <source>%1 at list price (not spent)</source>
        <translation>%1 au prix catalogue (non dépensé)</translation>
    </message>
    <message>
        <source>%1 served %2 of list-price usage today</source>
        <translation>%1 a servi aujourd’hui l’équivalent de %2 au prix catalogue</translation>
    </message>
    <message>
        <source>API keys cost %1 today; no subscription served a request today</source>
        <translation>Les clés d’API ont coûté %1 aujourd’hui&#xa0;; aucun abonnement n’a servi de requête aujourd’hui</translation>
    </message>
    <message>
        <source>%1; API keys cost %2</source>
        <translation>%1&#xa0;; les clés d’API ont coûté %2</translation>
    </message>
    <message>
        <source>Money spent %1, subscription usage worth %2 at list price, in the last %3 days</source>
        <translation>Argent dépensé %1, usage des abonnements valant %2 au prix catalogue, sur les %3 derniers jours</translation>
    </message>
</context>
</TS>
