// GENERATED FILE, do not edit: the Airflow REST API v2 types.
// Source: shared/contracts/airflow-v2-rest-api.yaml (apache/airflow, provenance in shared/contracts/README.md).
// Command: npm run generate -w @slipway/airflow-contract (openapi-typescript); `npm run check` compares.
/* eslint-disable */
export interface paths {
    "/api/v2/assets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Assets
         * @description Get assets.
         */
        get: operations["get_assets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/assets/aliases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Asset Aliases
         * @description Get asset aliases.
         */
        get: operations["get_asset_aliases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/assets/aliases/{asset_alias_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Asset Alias
         * @description Get an asset alias.
         */
        get: operations["get_asset_alias"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/assets/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Asset Events
         * @description Get asset events.
         */
        get: operations["get_asset_events"];
        put?: never;
        /**
         * Create Asset Event
         * @description Create asset events.
         */
        post: operations["create_asset_event"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/assets/{asset_id}/materialize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Materialize Asset
         * @description Materialize an asset by triggering a DAG run that produces it.
         */
        post: operations["materialize_asset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/assets/{asset_id}/queuedEvents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Asset Queued Events
         * @description Get queued asset events for an asset.
         */
        get: operations["get_asset_queued_events"];
        put?: never;
        post?: never;
        /**
         * Delete Asset Queued Events
         * @description Delete queued asset events for an asset.
         */
        delete: operations["delete_asset_queued_events"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/assets/{asset_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Asset
         * @description Get an asset.
         */
        get: operations["get_asset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/assets/queuedEvents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Dag Asset Queued Events
         * @description Get queued asset events for a DAG.
         */
        get: operations["get_dag_asset_queued_events"];
        put?: never;
        post?: never;
        /** Delete Dag Asset Queued Events */
        delete: operations["delete_dag_asset_queued_events"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/assets/{asset_id}/queuedEvents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Dag Asset Queued Event
         * @description Get a queued asset event for a DAG.
         */
        get: operations["get_dag_asset_queued_event"];
        put?: never;
        post?: never;
        /**
         * Delete Dag Asset Queued Event
         * @description Delete a queued asset event for a DAG.
         */
        delete: operations["delete_dag_asset_queued_event"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/backfills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Backfills */
        get: operations["list_backfills"];
        put?: never;
        /** Create Backfill */
        post: operations["create_backfill"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/backfills/{backfill_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Backfill */
        get: operations["get_backfill"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/backfills/{backfill_id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Pause Backfill */
        put: operations["pause_backfill"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/backfills/{backfill_id}/unpause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Unpause Backfill */
        put: operations["unpause_backfill"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/backfills/{backfill_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Cancel Backfill */
        put: operations["cancel_backfill"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/backfills/dry_run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create Backfill Dry Run */
        post: operations["create_backfill_dry_run"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/connections/{connection_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Connection
         * @description Get a connection entry.
         */
        get: operations["get_connection"];
        put?: never;
        post?: never;
        /**
         * Delete Connection
         * @description Delete a connection entry.
         */
        delete: operations["delete_connection"];
        options?: never;
        head?: never;
        /**
         * Patch Connection
         * @description Update a connection entry.
         */
        patch: operations["patch_connection"];
        trace?: never;
    };
    "/api/v2/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Connections
         * @description Get all connection entries.
         */
        get: operations["get_connections"];
        put?: never;
        /**
         * Post Connection
         * @description Create connection entry.
         */
        post: operations["post_connection"];
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Bulk Connections
         * @description Bulk create, update, and delete connections.
         */
        patch: operations["bulk_connections"];
        trace?: never;
    };
    "/api/v2/connections/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test Connection
         * @description Test an API connection.
         *
         *     This method first creates an in-memory transient conn_id & exports that to an env var,
         *     as some hook classes tries to find out the `conn` from their __init__ method & errors out if not found.
         *     It also deletes the conn id env connection after the test.
         */
        post: operations["test_connection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/connections/defaults": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create Default Connections
         * @description Create default connections.
         */
        post: operations["create_default_connections"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Dag Run */
        get: operations["get_dag_run"];
        put?: never;
        post?: never;
        /**
         * Delete Dag Run
         * @description Delete a DAG Run entry.
         */
        delete: operations["delete_dag_run"];
        options?: never;
        head?: never;
        /**
         * Patch Dag Run
         * @description Modify a DAG Run.
         */
        patch: operations["patch_dag_run"];
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/upstreamAssetEvents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Upstream Asset Events
         * @description If dag run is asset-triggered, return the asset events that triggered it.
         */
        get: operations["get_upstream_asset_events"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/clear": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Clear Dag Run */
        post: operations["clear_dag_run"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Dag Runs
         * @description Get all DAG Runs.
         *
         *     This endpoint allows specifying `~` as the dag_id to retrieve Dag Runs for all DAGs.
         */
        get: operations["get_dag_runs"];
        put?: never;
        /**
         * Trigger Dag Run
         * @description Trigger a DAG.
         */
        post: operations["trigger_dag_run"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/wait": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Experimental: Wait for a dag run to complete, and return task results if requested.
         * @description 🚧 This is an experimental endpoint and may change or be removed without notice.
         */
        get: operations["wait_dag_run_until_finished"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get List Dag Runs Batch
         * @description Get a list of DAG Runs.
         */
        post: operations["get_list_dag_runs_batch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dagSources/{dag_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Dag Source
         * @description Get source code using file token.
         */
        get: operations["get_dag_source"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dagStats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Dag Stats
         * @description Get Dag statistics.
         */
        get: operations["get_dag_stats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dagReports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Dag Reports
         * @description Get DAG report.
         */
        get: operations["get_dag_reports"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Config */
        get: operations["get_config"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/config/section/{section}/option/{option}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Config Value */
        get: operations["get_config_value"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dagWarnings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List Dag Warnings
         * @description Get a list of DAG warnings.
         */
        get: operations["list_dag_warnings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Dags
         * @description Get all DAGs.
         */
        get: operations["get_dags"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Patch Dags
         * @description Patch multiple DAGs.
         */
        patch: operations["patch_dags"];
        trace?: never;
    };
    "/api/v2/dags/{dag_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Dag
         * @description Get basic information about a DAG.
         */
        get: operations["get_dag"];
        put?: never;
        post?: never;
        /**
         * Delete Dag
         * @description Delete the specific DAG.
         */
        delete: operations["delete_dag"];
        options?: never;
        head?: never;
        /**
         * Patch Dag
         * @description Patch the specific DAG.
         */
        patch: operations["patch_dag"];
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/details": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Dag Details
         * @description Get details of DAG.
         */
        get: operations["get_dag_details"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/favorite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Favorite Dag
         * @description Mark the DAG as favorite.
         */
        post: operations["favorite_dag"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/unfavorite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unfavorite Dag
         * @description Unmark the DAG as favorite.
         */
        post: operations["unfavorite_dag"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/eventLogs/{event_log_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Event Log */
        get: operations["get_event_log"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/eventLogs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Event Logs
         * @description Get all Event Logs.
         */
        get: operations["get_event_logs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Extra Links
         * @description Get extra links for task instance.
         */
        get: operations["get_extra_links"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/importErrors/{import_error_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Import Error
         * @description Get an import error.
         */
        get: operations["get_import_error"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/importErrors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Import Errors
         * @description Get all import errors.
         */
        get: operations["get_import_errors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Jobs
         * @description Get all jobs.
         */
        get: operations["get_jobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/plugins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Plugins */
        get: operations["get_plugins"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/plugins/importErrors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Import Errors */
        get: operations["import_errors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/pools/{pool_name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Pool
         * @description Get a pool.
         */
        get: operations["get_pool"];
        put?: never;
        post?: never;
        /**
         * Delete Pool
         * @description Delete a pool entry.
         */
        delete: operations["delete_pool"];
        options?: never;
        head?: never;
        /**
         * Patch Pool
         * @description Update a Pool.
         */
        patch: operations["patch_pool"];
        trace?: never;
    };
    "/api/v2/pools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Pools
         * @description Get all pools entries.
         */
        get: operations["get_pools"];
        put?: never;
        /**
         * Post Pool
         * @description Create a Pool.
         */
        post: operations["post_pool"];
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Bulk Pools
         * @description Bulk create, update, and delete pools.
         */
        patch: operations["bulk_pools"];
        trace?: never;
    };
    "/api/v2/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Providers
         * @description Get providers.
         */
        get: operations["get_providers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/xcomEntries/{xcom_key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Xcom Entry
         * @description Get an XCom entry.
         */
        get: operations["get_xcom_entry"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update Xcom Entry
         * @description Update an existing XCom entry.
         */
        patch: operations["update_xcom_entry"];
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/xcomEntries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Xcom Entries
         * @description Get all XCom entries.
         *
         *     This endpoint allows specifying `~` as the dag_id, dag_run_id, task_id to retrieve XCom entries for all DAGs.
         */
        get: operations["get_xcom_entries"];
        put?: never;
        /**
         * Create Xcom Entry
         * @description Create an XCom entry.
         */
        post: operations["create_xcom_entry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Task Instance
         * @description Get task instance.
         */
        get: operations["get_task_instance"];
        put?: never;
        post?: never;
        /**
         * Delete Task Instance
         * @description Delete a task instance.
         */
        delete: operations["delete_task_instance"];
        options?: never;
        head?: never;
        /**
         * Patch Task Instance
         * @description Update a task instance.
         */
        patch: operations["patch_task_instance"];
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/listMapped": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Mapped Task Instances
         * @description Get list of mapped task instances.
         */
        get: operations["get_mapped_task_instances"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/{map_index}/dependencies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Task Instance Dependencies
         * @description Get dependencies blocking task from getting scheduled.
         */
        get: operations["get_task_instance_dependencies_by_map_index"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/dependencies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Task Instance Dependencies
         * @description Get dependencies blocking task from getting scheduled.
         */
        get: operations["get_task_instance_dependencies"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/tries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Task Instance Tries
         * @description Get list of task instances history.
         */
        get: operations["get_task_instance_tries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/{map_index}/tries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Mapped Task Instance Tries */
        get: operations["get_mapped_task_instance_tries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/{map_index}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Mapped Task Instance
         * @description Get task instance.
         */
        get: operations["get_mapped_task_instance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Patch Task Instance
         * @description Update a task instance.
         */
        patch: operations["patch_task_instance_by_map_index"];
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Task Instances
         * @description Get list of task instances.
         *
         *     This endpoint allows specifying `~` as the dag_id, dag_run_id to retrieve Task Instances for all DAGs
         *     and DAG runs.
         */
        get: operations["get_task_instances"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Bulk Task Instances
         * @description Bulk update, and delete task instances.
         */
        patch: operations["bulk_task_instances"];
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get Task Instances Batch
         * @description Get list of task instances.
         */
        post: operations["get_task_instances_batch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/tries/{task_try_number}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Task Instance Try Details
         * @description Get task instance details by try number.
         */
        get: operations["get_task_instance_try_details"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/{map_index}/tries/{task_try_number}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Mapped Task Instance Try Details */
        get: operations["get_mapped_task_instance_try_details"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/clearTaskInstances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Post Clear Task Instances
         * @description Clear task instances.
         */
        post: operations["post_clear_task_instances"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/{map_index}/dry_run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Patch Task Instance Dry Run
         * @description Update a task instance dry_run mode.
         */
        patch: operations["patch_task_instance_dry_run_by_map_index"];
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/dry_run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Patch Task Instance Dry Run
         * @description Update a task instance dry_run mode.
         */
        patch: operations["patch_task_instance_dry_run"];
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Tasks
         * @description Get tasks for DAG.
         */
        get: operations["get_tasks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/tasks/{task_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Task
         * @description Get simplified representation of a task.
         */
        get: operations["get_task"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/variables/{variable_key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Variable
         * @description Get a variable entry.
         */
        get: operations["get_variable"];
        put?: never;
        post?: never;
        /**
         * Delete Variable
         * @description Delete a variable entry.
         */
        delete: operations["delete_variable"];
        options?: never;
        head?: never;
        /**
         * Patch Variable
         * @description Update a variable by key.
         */
        patch: operations["patch_variable"];
        trace?: never;
    };
    "/api/v2/variables": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Variables
         * @description Get all Variables entries.
         */
        get: operations["get_variables"];
        put?: never;
        /**
         * Post Variable
         * @description Create a variable.
         */
        post: operations["post_variable"];
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Bulk Variables
         * @description Bulk create, update, and delete variables.
         */
        patch: operations["bulk_variables"];
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/logs/{try_number}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Log
         * @description Get logs for a specific task instance.
         */
        get: operations["get_log"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagRuns/{dag_run_id}/taskInstances/{task_id}/externalLogUrl/{try_number}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get External Log Url
         * @description Get external log URL for a specific task instance.
         */
        get: operations["get_external_log_url"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/parseDagFile/{file_token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Reparse Dag File
         * @description Request re-parsing a DAG file.
         */
        put: operations["reparse_dag_file"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dagTags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Dag Tags
         * @description Get all DAG tags.
         */
        get: operations["get_dag_tags"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagVersions/{version_number}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Dag Version
         * @description Get one Dag Version.
         */
        get: operations["get_dag_version"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/dags/{dag_id}/dagVersions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Dag Versions
         * @description Get all DAG Versions.
         *
         *     This endpoint allows specifying `~` as the dag_id to retrieve DAG Versions for all DAGs.
         */
        get: operations["get_dag_versions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/hitlDetails/{dag_id}/{dag_run_id}/{task_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Hitl Detail
         * @description Get a Human-in-the-loop detail of a specific task instance.
         */
        get: operations["get_hitl_detail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update Hitl Detail
         * @description Update a Human-in-the-loop detail.
         */
        patch: operations["update_hitl_detail"];
        trace?: never;
    };
    "/api/v2/hitlDetails/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Hitl Details
         * @description Get Human-in-the-loop details.
         */
        get: operations["get_hitl_details"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/monitor/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get Health */
        get: operations["get_health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/version": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Version
         * @description Get version information.
         */
        get: operations["get_version"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Login
         * @description Redirect to the login URL depending on the AuthManager configured.
         */
        get: operations["login"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Logout
         * @description Logout the user.
         */
        get: operations["logout"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Refresh
         * @description Refresh the authentication token.
         */
        get: operations["refresh"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * AppBuilderMenuItemResponse
         * @description Serializer for AppBuilder Menu Item responses.
         */
        AppBuilderMenuItemResponse: {
            /** Name */
            name: string;
            /** Href */
            href: string;
            /** Category */
            category?: string | null;
        } & {
            [key: string]: unknown;
        };
        /**
         * AppBuilderViewResponse
         * @description Serializer for AppBuilder View responses.
         */
        AppBuilderViewResponse: {
            /** Name */
            name?: string | null;
            /** Category */
            category?: string | null;
            /** View */
            view?: string | null;
            /** Label */
            label?: string | null;
        } & {
            [key: string]: unknown;
        };
        /**
         * AssetAliasCollectionResponse
         * @description Asset alias collection response.
         */
        AssetAliasCollectionResponse: {
            /** Asset Aliases */
            asset_aliases: components["schemas"]["AssetAliasResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * AssetAliasResponse
         * @description Asset alias serializer for responses.
         */
        AssetAliasResponse: {
            /** Id */
            id: number;
            /** Name */
            name: string;
            /** Group */
            group: string;
        };
        /**
         * AssetCollectionResponse
         * @description Asset collection response.
         */
        AssetCollectionResponse: {
            /** Assets */
            assets: components["schemas"]["AssetResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * AssetEventCollectionResponse
         * @description Asset event collection response.
         */
        AssetEventCollectionResponse: {
            /** Asset Events */
            asset_events: components["schemas"]["AssetEventResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * AssetEventResponse
         * @description Asset event serializer for responses.
         */
        AssetEventResponse: {
            /** Id */
            id: number;
            /** Asset Id */
            asset_id: number;
            /** Uri */
            uri?: string | null;
            /** Name */
            name?: string | null;
            /** Group */
            group?: string | null;
            /** Extra */
            extra?: {
                [key: string]: unknown;
            } | null;
            /** Source Task Id */
            source_task_id?: string | null;
            /** Source Dag Id */
            source_dag_id?: string | null;
            /** Source Run Id */
            source_run_id?: string | null;
            /** Source Map Index */
            source_map_index: number;
            /** Created Dagruns */
            created_dagruns: components["schemas"]["DagRunAssetReference"][];
            /**
             * Timestamp
             * Format: date-time
             */
            timestamp: string;
        };
        /**
         * AssetResponse
         * @description Asset serializer for responses.
         */
        AssetResponse: {
            /** Id */
            id: number;
            /** Name */
            name: string;
            /** Uri */
            uri: string;
            /** Group */
            group: string;
            /** Extra */
            extra?: {
                [key: string]: unknown;
            } | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
            /** Scheduled Dags */
            scheduled_dags: components["schemas"]["DagScheduleAssetReference"][];
            /** Producing Tasks */
            producing_tasks: components["schemas"]["TaskOutletAssetReference"][];
            /** Consuming Tasks */
            consuming_tasks: components["schemas"]["TaskInletAssetReference"][];
            /** Aliases */
            aliases: components["schemas"]["AssetAliasResponse"][];
            last_asset_event?: components["schemas"]["LastAssetEventResponse"] | null;
        };
        /**
         * BackfillCollectionResponse
         * @description Backfill Collection serializer for responses.
         */
        BackfillCollectionResponse: {
            /** Backfills */
            backfills: components["schemas"]["BackfillResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * BackfillPostBody
         * @description Object used for create backfill request.
         */
        BackfillPostBody: {
            /** Dag Id */
            dag_id: string;
            /**
             * From Date
             * Format: date-time
             */
            from_date: string;
            /**
             * To Date
             * Format: date-time
             */
            to_date: string;
            /**
             * Run Backwards
             * @default false
             */
            run_backwards?: boolean;
            /**
             * Dag Run Conf
             * @default {}
             */
            dag_run_conf?: {
                [key: string]: unknown;
            };
            /** @default none */
            reprocess_behavior?: components["schemas"]["ReprocessBehavior"];
            /**
             * Max Active Runs
             * @default 10
             */
            max_active_runs?: number;
        };
        /**
         * BackfillResponse
         * @description Base serializer for Backfill.
         */
        BackfillResponse: {
            /** Id */
            id: number;
            /** Dag Id */
            dag_id: string;
            /**
             * From Date
             * Format: date-time
             */
            from_date: string;
            /**
             * To Date
             * Format: date-time
             */
            to_date: string;
            /** Dag Run Conf */
            dag_run_conf: {
                [key: string]: unknown;
            };
            /** Is Paused */
            is_paused: boolean;
            reprocess_behavior: components["schemas"]["ReprocessBehavior"];
            /** Max Active Runs */
            max_active_runs: number;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Completed At */
            completed_at: string | null;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
            /** Dag Display Name */
            dag_display_name: string;
        };
        /**
         * BaseInfoResponse
         * @description Base info serializer for responses.
         */
        BaseInfoResponse: {
            /** Status */
            status: string | null;
        };
        /**
         * BulkActionNotOnExistence
         * @description Bulk Action to be taken if the entity does not exist.
         * @enum {string}
         */
        BulkActionNotOnExistence: "fail" | "skip";
        /**
         * BulkActionOnExistence
         * @description Bulk Action to be taken if the entity already exists or not.
         * @enum {string}
         */
        BulkActionOnExistence: "fail" | "skip" | "overwrite";
        /**
         * BulkActionResponse
         * @description Serializer for individual bulk action responses.
         *
         *     Represents the outcome of a single bulk operation (create, update, or delete).
         *     The response includes a list of successful keys and any errors encountered during the operation.
         *     This structure helps users understand which key actions succeeded and which failed.
         */
        BulkActionResponse: {
            /**
             * Success
             * @description A list of unique id/key representing successful operations.
             * @default []
             */
            success?: string[];
            /**
             * Errors
             * @description A list of errors encountered during the operation, each containing details about the issue.
             * @default []
             */
            errors?: {
                [key: string]: unknown;
            }[];
        };
        /** BulkBody[BulkTaskInstanceBody] */
        BulkBody_BulkTaskInstanceBody_: {
            /** Actions */
            actions: (components["schemas"]["BulkCreateAction_BulkTaskInstanceBody_"] | components["schemas"]["BulkUpdateAction_BulkTaskInstanceBody_"] | components["schemas"]["BulkDeleteAction_BulkTaskInstanceBody_"])[];
        };
        /** BulkBody[ConnectionBody] */
        BulkBody_ConnectionBody_: {
            /** Actions */
            actions: (components["schemas"]["BulkCreateAction_ConnectionBody_"] | components["schemas"]["BulkUpdateAction_ConnectionBody_"] | components["schemas"]["BulkDeleteAction_ConnectionBody_"])[];
        };
        /** BulkBody[PoolBody] */
        BulkBody_PoolBody_: {
            /** Actions */
            actions: (components["schemas"]["BulkCreateAction_PoolBody_"] | components["schemas"]["BulkUpdateAction_PoolBody_"] | components["schemas"]["BulkDeleteAction_PoolBody_"])[];
        };
        /** BulkBody[VariableBody] */
        BulkBody_VariableBody_: {
            /** Actions */
            actions: (components["schemas"]["BulkCreateAction_VariableBody_"] | components["schemas"]["BulkUpdateAction_VariableBody_"] | components["schemas"]["BulkDeleteAction_VariableBody_"])[];
        };
        /** BulkCreateAction[BulkTaskInstanceBody] */
        BulkCreateAction_BulkTaskInstanceBody_: {
            /**
             * Action
             * @description The action to be performed on the entities.
             * @constant
             */
            action: "create";
            /**
             * Entities
             * @description A list of entities to be created.
             */
            entities: components["schemas"]["BulkTaskInstanceBody"][];
            /** @default fail */
            action_on_existence?: components["schemas"]["BulkActionOnExistence"];
        };
        /** BulkCreateAction[ConnectionBody] */
        BulkCreateAction_ConnectionBody_: {
            /**
             * Action
             * @description The action to be performed on the entities.
             * @constant
             */
            action: "create";
            /**
             * Entities
             * @description A list of entities to be created.
             */
            entities: components["schemas"]["ConnectionBody"][];
            /** @default fail */
            action_on_existence?: components["schemas"]["BulkActionOnExistence"];
        };
        /** BulkCreateAction[PoolBody] */
        BulkCreateAction_PoolBody_: {
            /**
             * Action
             * @description The action to be performed on the entities.
             * @constant
             */
            action: "create";
            /**
             * Entities
             * @description A list of entities to be created.
             */
            entities: components["schemas"]["PoolBody"][];
            /** @default fail */
            action_on_existence?: components["schemas"]["BulkActionOnExistence"];
        };
        /** BulkCreateAction[VariableBody] */
        BulkCreateAction_VariableBody_: {
            /**
             * Action
             * @description The action to be performed on the entities.
             * @constant
             */
            action: "create";
            /**
             * Entities
             * @description A list of entities to be created.
             */
            entities: components["schemas"]["VariableBody"][];
            /** @default fail */
            action_on_existence?: components["schemas"]["BulkActionOnExistence"];
        };
        /** BulkDeleteAction[BulkTaskInstanceBody] */
        BulkDeleteAction_BulkTaskInstanceBody_: {
            /**
             * Action
             * @description The action to be performed on the entities.
             * @constant
             */
            action: "delete";
            /**
             * Entities
             * @description A list of entity id/key or entity objects to be deleted.
             */
            entities: (string | components["schemas"]["BulkTaskInstanceBody"])[];
            /** @default fail */
            action_on_non_existence?: components["schemas"]["BulkActionNotOnExistence"];
        };
        /** BulkDeleteAction[ConnectionBody] */
        BulkDeleteAction_ConnectionBody_: {
            /**
             * Action
             * @description The action to be performed on the entities.
             * @constant
             */
            action: "delete";
            /**
             * Entities
             * @description A list of entity id/key or entity objects to be deleted.
             */
            entities: (string | components["schemas"]["BulkTaskInstanceBody"])[];
            /** @default fail */
            action_on_non_existence?: components["schemas"]["BulkActionNotOnExistence"];
        };
        /** BulkDeleteAction[PoolBody] */
        BulkDeleteAction_PoolBody_: {
            /**
             * Action
             * @description The action to be performed on the entities.
             * @constant
             */
            action: "delete";
            /**
             * Entities
             * @description A list of entity id/key or entity objects to be deleted.
             */
            entities: (string | components["schemas"]["BulkTaskInstanceBody"])[];
            /** @default fail */
            action_on_non_existence?: components["schemas"]["BulkActionNotOnExistence"];
        };
        /** BulkDeleteAction[VariableBody] */
        BulkDeleteAction_VariableBody_: {
            /**
             * Action
             * @description The action to be performed on the entities.
             * @constant
             */
            action: "delete";
            /**
             * Entities
             * @description A list of entity id/key or entity objects to be deleted.
             */
            entities: (string | components["schemas"]["BulkTaskInstanceBody"])[];
            /** @default fail */
            action_on_non_existence?: components["schemas"]["BulkActionNotOnExistence"];
        };
        /**
         * BulkResponse
         * @description Serializer for responses to bulk entity operations.
         *
         *     This represents the results of create, update, and delete actions performed on entity in bulk.
         *     Each action (if requested) is represented as a field containing details about successful keys and any encountered errors.
         *     Fields are populated in the response only if the respective action was part of the request, else are set None.
         */
        BulkResponse: {
            /** @description Details of the bulk create operation, including successful keys and errors. */
            create?: components["schemas"]["BulkActionResponse"] | null;
            /** @description Details of the bulk update operation, including successful keys and errors. */
            update?: components["schemas"]["BulkActionResponse"] | null;
            /** @description Details of the bulk delete operation, including successful keys and errors. */
            delete?: components["schemas"]["BulkActionResponse"] | null;
        };
        /**
         * BulkTaskInstanceBody
         * @description Request body for bulk update, and delete task instances.
         */
        BulkTaskInstanceBody: {
            new_state?: components["schemas"]["TaskInstanceState"] | null;
            /** Note */
            note?: string | null;
            /**
             * Include Upstream
             * @default false
             */
            include_upstream?: boolean;
            /**
             * Include Downstream
             * @default false
             */
            include_downstream?: boolean;
            /**
             * Include Future
             * @default false
             */
            include_future?: boolean;
            /**
             * Include Past
             * @default false
             */
            include_past?: boolean;
            /** Task Id */
            task_id: string;
            /** Map Index */
            map_index?: number | null;
        };
        /** BulkUpdateAction[BulkTaskInstanceBody] */
        BulkUpdateAction_BulkTaskInstanceBody_: {
            /**
             * Action
             * @description The action to be performed on the entities.
             * @constant
             */
            action: "update";
            /**
             * Entities
             * @description A list of entities to be updated.
             */
            entities: components["schemas"]["BulkTaskInstanceBody"][];
            /** @default fail */
            action_on_non_existence?: components["schemas"]["BulkActionNotOnExistence"];
        };
        /** BulkUpdateAction[ConnectionBody] */
        BulkUpdateAction_ConnectionBody_: {
            /**
             * Action
             * @description The action to be performed on the entities.
             * @constant
             */
            action: "update";
            /**
             * Entities
             * @description A list of entities to be updated.
             */
            entities: components["schemas"]["ConnectionBody"][];
            /** @default fail */
            action_on_non_existence?: components["schemas"]["BulkActionNotOnExistence"];
        };
        /** BulkUpdateAction[PoolBody] */
        BulkUpdateAction_PoolBody_: {
            /**
             * Action
             * @description The action to be performed on the entities.
             * @constant
             */
            action: "update";
            /**
             * Entities
             * @description A list of entities to be updated.
             */
            entities: components["schemas"]["PoolBody"][];
            /** @default fail */
            action_on_non_existence?: components["schemas"]["BulkActionNotOnExistence"];
        };
        /** BulkUpdateAction[VariableBody] */
        BulkUpdateAction_VariableBody_: {
            /**
             * Action
             * @description The action to be performed on the entities.
             * @constant
             */
            action: "update";
            /**
             * Entities
             * @description A list of entities to be updated.
             */
            entities: components["schemas"]["VariableBody"][];
            /** @default fail */
            action_on_non_existence?: components["schemas"]["BulkActionNotOnExistence"];
        };
        /**
         * ClearTaskInstancesBody
         * @description Request body for Clear Task Instances endpoint.
         */
        ClearTaskInstancesBody: {
            /**
             * Dry Run
             * @default true
             */
            dry_run?: boolean;
            /** Start Date */
            start_date?: string | null;
            /** End Date */
            end_date?: string | null;
            /**
             * Only Failed
             * @default true
             */
            only_failed?: boolean;
            /**
             * Only Running
             * @default false
             */
            only_running?: boolean;
            /**
             * Reset Dag Runs
             * @default true
             */
            reset_dag_runs?: boolean;
            /** Task Ids */
            task_ids?: (string | [
                string,
                number
            ])[] | null;
            /** Dag Run Id */
            dag_run_id?: string | null;
            /**
             * Include Upstream
             * @default false
             */
            include_upstream?: boolean;
            /**
             * Include Downstream
             * @default false
             */
            include_downstream?: boolean;
            /**
             * Include Future
             * @default false
             */
            include_future?: boolean;
            /**
             * Include Past
             * @default false
             */
            include_past?: boolean;
            /**
             * Run On Latest Version
             * @description (Experimental) Run on the latest bundle version of the dag after clearing the task instances.
             * @default false
             */
            run_on_latest_version?: boolean;
        };
        /**
         * Config
         * @description List of config sections with their options.
         */
        Config: {
            /** Sections */
            sections: components["schemas"]["ConfigSection"][];
        };
        /**
         * ConfigOption
         * @description Config option.
         */
        ConfigOption: {
            /** Key */
            key: string;
            /** Value */
            value: string | [
                string,
                string
            ];
        };
        /**
         * ConfigSection
         * @description Config Section Schema.
         */
        ConfigSection: {
            /** Name */
            name: string;
            /** Options */
            options: components["schemas"]["ConfigOption"][];
        };
        /**
         * ConnectionBody
         * @description Connection Serializer for requests body.
         */
        ConnectionBody: {
            /** Connection Id */
            connection_id: string;
            /** Conn Type */
            conn_type: string;
            /** Description */
            description?: string | null;
            /** Host */
            host?: string | null;
            /** Login */
            login?: string | null;
            /** Schema */
            schema?: string | null;
            /** Port */
            port?: number | null;
            /** Password */
            password?: string | null;
            /** Extra */
            extra?: string | null;
        };
        /**
         * ConnectionCollectionResponse
         * @description Connection Collection serializer for responses.
         */
        ConnectionCollectionResponse: {
            /** Connections */
            connections: components["schemas"]["ConnectionResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * ConnectionResponse
         * @description Connection serializer for responses.
         */
        ConnectionResponse: {
            /** Connection Id */
            connection_id: string;
            /** Conn Type */
            conn_type: string;
            /** Description */
            description: string | null;
            /** Host */
            host: string | null;
            /** Login */
            login: string | null;
            /** Schema */
            schema: string | null;
            /** Port */
            port: number | null;
            /** Password */
            password: string | null;
            /** Extra */
            extra: string | null;
        };
        /**
         * ConnectionTestResponse
         * @description Connection Test serializer for responses.
         */
        ConnectionTestResponse: {
            /** Status */
            status: boolean;
            /** Message */
            message: string;
        };
        /**
         * CreateAssetEventsBody
         * @description Create asset events request.
         */
        CreateAssetEventsBody: {
            /** Asset Id */
            asset_id: number;
            /** Extra */
            extra?: {
                [key: string]: unknown;
            };
        };
        /**
         * DAGCollectionResponse
         * @description DAG Collection serializer for responses.
         */
        DAGCollectionResponse: {
            /** Dags */
            dags: components["schemas"]["DAGResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * DAGDetailsResponse
         * @description Specific serializer for DAG Details responses.
         */
        DAGDetailsResponse: {
            /** Dag Id */
            dag_id: string;
            /** Dag Display Name */
            dag_display_name: string;
            /** Is Paused */
            is_paused: boolean;
            /** Is Stale */
            is_stale: boolean;
            /** Last Parsed Time */
            last_parsed_time: string | null;
            /** Last Expired */
            last_expired: string | null;
            /** Bundle Name */
            bundle_name: string | null;
            /** Bundle Version */
            bundle_version: string | null;
            /** Relative Fileloc */
            relative_fileloc: string | null;
            /** Fileloc */
            fileloc: string;
            /** Description */
            description: string | null;
            /** Timetable Summary */
            timetable_summary: string | null;
            /** Timetable Description */
            timetable_description: string | null;
            /** Tags */
            tags: components["schemas"]["DagTagResponse"][];
            /** Max Active Tasks */
            max_active_tasks: number;
            /** Max Active Runs */
            max_active_runs: number | null;
            /** Max Consecutive Failed Dag Runs */
            max_consecutive_failed_dag_runs: number;
            /** Has Task Concurrency Limits */
            has_task_concurrency_limits: boolean;
            /** Has Import Errors */
            has_import_errors: boolean;
            /** Next Dagrun Logical Date */
            next_dagrun_logical_date: string | null;
            /** Next Dagrun Data Interval Start */
            next_dagrun_data_interval_start: string | null;
            /** Next Dagrun Data Interval End */
            next_dagrun_data_interval_end: string | null;
            /** Next Dagrun Run After */
            next_dagrun_run_after: string | null;
            /** Owners */
            owners: string[];
            /** Catchup */
            catchup: boolean;
            /** Dag Run Timeout */
            dag_run_timeout: string | null;
            /** Asset Expression */
            asset_expression: {
                [key: string]: unknown;
            } | null;
            /** Doc Md */
            doc_md: string | null;
            /** Start Date */
            start_date: string | null;
            /** End Date */
            end_date: string | null;
            /** Is Paused Upon Creation */
            is_paused_upon_creation: boolean | null;
            /** Params */
            params: {
                [key: string]: unknown;
            } | null;
            /** Render Template As Native Obj */
            render_template_as_native_obj: boolean;
            /** Template Search Path */
            template_search_path: string[] | null;
            /** Timezone */
            timezone: string | null;
            /** Last Parsed */
            last_parsed: string | null;
            /** Default Args */
            default_args: {
                [key: string]: unknown;
            } | null;
            /** Owner Links */
            owner_links?: {
                [key: string]: string;
            } | null;
            /**
             * File Token
             * @description Return file token.
             */
            readonly file_token: string;
            /**
             * Concurrency
             * @description Return max_active_tasks as concurrency.
             *
             *     Deprecated: Use max_active_tasks instead.
             */
            readonly concurrency: number;
            /** @description Return the latest DagVersion. */
            readonly latest_dag_version: components["schemas"]["DagVersionResponse"] | null;
        };
        /**
         * DAGPatchBody
         * @description Dag Serializer for updatable bodies.
         */
        DAGPatchBody: {
            /** Is Paused */
            is_paused: boolean;
        };
        /**
         * DAGResponse
         * @description DAG serializer for responses.
         */
        DAGResponse: {
            /** Dag Id */
            dag_id: string;
            /** Dag Display Name */
            dag_display_name: string;
            /** Is Paused */
            is_paused: boolean;
            /** Is Stale */
            is_stale: boolean;
            /** Last Parsed Time */
            last_parsed_time: string | null;
            /** Last Expired */
            last_expired: string | null;
            /** Bundle Name */
            bundle_name: string | null;
            /** Bundle Version */
            bundle_version: string | null;
            /** Relative Fileloc */
            relative_fileloc: string | null;
            /** Fileloc */
            fileloc: string;
            /** Description */
            description: string | null;
            /** Timetable Summary */
            timetable_summary: string | null;
            /** Timetable Description */
            timetable_description: string | null;
            /** Tags */
            tags: components["schemas"]["DagTagResponse"][];
            /** Max Active Tasks */
            max_active_tasks: number;
            /** Max Active Runs */
            max_active_runs: number | null;
            /** Max Consecutive Failed Dag Runs */
            max_consecutive_failed_dag_runs: number;
            /** Has Task Concurrency Limits */
            has_task_concurrency_limits: boolean;
            /** Has Import Errors */
            has_import_errors: boolean;
            /** Next Dagrun Logical Date */
            next_dagrun_logical_date: string | null;
            /** Next Dagrun Data Interval Start */
            next_dagrun_data_interval_start: string | null;
            /** Next Dagrun Data Interval End */
            next_dagrun_data_interval_end: string | null;
            /** Next Dagrun Run After */
            next_dagrun_run_after: string | null;
            /** Owners */
            owners: string[];
            /**
             * File Token
             * @description Return file token.
             */
            readonly file_token: string;
        };
        /**
         * DAGRunClearBody
         * @description DAG Run serializer for clear endpoint body.
         */
        DAGRunClearBody: {
            /**
             * Dry Run
             * @default true
             */
            dry_run?: boolean;
            /**
             * Only Failed
             * @default false
             */
            only_failed?: boolean;
            /**
             * Run On Latest Version
             * @description (Experimental) Run on the latest bundle version of the Dag after clearing the Dag Run.
             * @default false
             */
            run_on_latest_version?: boolean;
        };
        /**
         * DAGRunCollectionResponse
         * @description DAG Run Collection serializer for responses.
         */
        DAGRunCollectionResponse: {
            /** Dag Runs */
            dag_runs: components["schemas"]["DAGRunResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * DAGRunPatchBody
         * @description DAG Run Serializer for PATCH requests.
         */
        DAGRunPatchBody: {
            state?: components["schemas"]["DAGRunPatchStates"] | null;
            /** Note */
            note?: string | null;
        };
        /**
         * DAGRunPatchStates
         * @description Enum for DAG Run states when updating a DAG Run.
         * @enum {string}
         */
        DAGRunPatchStates: "queued" | "success" | "failed";
        /**
         * DAGRunResponse
         * @description DAG Run serializer for responses.
         */
        DAGRunResponse: {
            /** Dag Run Id */
            dag_run_id: string;
            /** Dag Id */
            dag_id: string;
            /** Logical Date */
            logical_date: string | null;
            /** Queued At */
            queued_at: string | null;
            /** Start Date */
            start_date: string | null;
            /** End Date */
            end_date: string | null;
            /** Duration */
            duration: number | null;
            /** Data Interval Start */
            data_interval_start: string | null;
            /** Data Interval End */
            data_interval_end: string | null;
            /**
             * Run After
             * Format: date-time
             */
            run_after: string;
            /** Last Scheduling Decision */
            last_scheduling_decision: string | null;
            run_type: components["schemas"]["DagRunType"];
            state: components["schemas"]["DagRunState"];
            triggered_by: components["schemas"]["DagRunTriggeredByType"] | null;
            /** Triggering User Name */
            triggering_user_name: string | null;
            /** Conf */
            conf: {
                [key: string]: unknown;
            } | null;
            /** Note */
            note: string | null;
            /** Dag Versions */
            dag_versions: components["schemas"]["DagVersionResponse"][];
            /** Bundle Version */
            bundle_version: string | null;
            /** Dag Display Name */
            dag_display_name: string;
        };
        /**
         * DAGRunsBatchBody
         * @description List DAG Runs body for batch endpoint.
         */
        DAGRunsBatchBody: {
            /** Order By */
            order_by?: string | null;
            /**
             * Page Offset
             * @default 0
             */
            page_offset?: number;
            /**
             * Page Limit
             * @default 100
             */
            page_limit?: number;
            /** Dag Ids */
            dag_ids?: string[] | null;
            /** States */
            states?: (components["schemas"]["DagRunState"] | null)[] | null;
            /** Run After Gte */
            run_after_gte?: string | null;
            /** Run After Gt */
            run_after_gt?: string | null;
            /** Run After Lte */
            run_after_lte?: string | null;
            /** Run After Lt */
            run_after_lt?: string | null;
            /** Logical Date Gte */
            logical_date_gte?: string | null;
            /** Logical Date Gt */
            logical_date_gt?: string | null;
            /** Logical Date Lte */
            logical_date_lte?: string | null;
            /** Logical Date Lt */
            logical_date_lt?: string | null;
            /** Start Date Gte */
            start_date_gte?: string | null;
            /** Start Date Gt */
            start_date_gt?: string | null;
            /** Start Date Lte */
            start_date_lte?: string | null;
            /** Start Date Lt */
            start_date_lt?: string | null;
            /** End Date Gte */
            end_date_gte?: string | null;
            /** End Date Gt */
            end_date_gt?: string | null;
            /** End Date Lte */
            end_date_lte?: string | null;
            /** End Date Lt */
            end_date_lt?: string | null;
        };
        /**
         * DAGSourceResponse
         * @description DAG Source serializer for responses.
         */
        DAGSourceResponse: {
            /** Content */
            content: string | null;
            /** Dag Id */
            dag_id: string;
            /** Version Number */
            version_number: number | null;
            /** Dag Display Name */
            dag_display_name: string;
        };
        /**
         * DAGTagCollectionResponse
         * @description DAG Tags Collection serializer for responses.
         */
        DAGTagCollectionResponse: {
            /** Tags */
            tags: string[];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * DAGVersionCollectionResponse
         * @description DAG Version Collection serializer for responses.
         */
        DAGVersionCollectionResponse: {
            /** Dag Versions */
            dag_versions: components["schemas"]["DagVersionResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * DAGWarningCollectionResponse
         * @description DAG warning collection serializer for responses.
         */
        DAGWarningCollectionResponse: {
            /** Dag Warnings */
            dag_warnings: components["schemas"]["DAGWarningResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * DAGWarningResponse
         * @description DAG Warning serializer for responses.
         */
        DAGWarningResponse: {
            /** Dag Id */
            dag_id: string;
            warning_type: components["schemas"]["DagWarningType"];
            /** Message */
            message: string;
            /**
             * Timestamp
             * Format: date-time
             */
            timestamp: string;
            /** Dag Display Name */
            dag_display_name: string;
        };
        /**
         * DagProcessorInfoResponse
         * @description DagProcessor info serializer for responses.
         */
        DagProcessorInfoResponse: {
            /** Status */
            status: string | null;
            /** Latest Dag Processor Heartbeat */
            latest_dag_processor_heartbeat: string | null;
        };
        /**
         * DagRunAssetReference
         * @description DAGRun serializer for asset responses.
         */
        DagRunAssetReference: {
            /** Run Id */
            run_id: string;
            /** Dag Id */
            dag_id: string;
            /** Logical Date */
            logical_date: string | null;
            /**
             * Start Date
             * Format: date-time
             */
            start_date: string;
            /** End Date */
            end_date: string | null;
            /** State */
            state: string;
            /** Data Interval Start */
            data_interval_start: string | null;
            /** Data Interval End */
            data_interval_end: string | null;
        };
        /**
         * DagRunState
         * @description All possible states that a DagRun can be in.
         *
         *     These are "shared" with TaskInstanceState in some parts of the code,
         *     so please ensure that their values always match the ones with the
         *     same name in TaskInstanceState.
         * @enum {string}
         */
        DagRunState: "queued" | "running" | "success" | "failed";
        /**
         * DagRunTriggeredByType
         * @description Class with TriggeredBy types for DagRun.
         * @enum {string}
         */
        DagRunTriggeredByType: "cli" | "operator" | "rest_api" | "ui" | "test" | "timetable" | "asset" | "backfill";
        /**
         * DagRunType
         * @description Class with DagRun types.
         * @enum {string}
         */
        DagRunType: "backfill" | "scheduled" | "manual" | "asset_triggered";
        /**
         * DagScheduleAssetReference
         * @description DAG schedule reference serializer for assets.
         */
        DagScheduleAssetReference: {
            /** Dag Id */
            dag_id: string;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
        };
        /**
         * DagStatsCollectionResponse
         * @description DAG Stats Collection serializer for responses.
         */
        DagStatsCollectionResponse: {
            /** Dags */
            dags: components["schemas"]["DagStatsResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * DagStatsResponse
         * @description DAG Stats serializer for responses.
         */
        DagStatsResponse: {
            /** Dag Id */
            dag_id: string;
            /** Dag Display Name */
            dag_display_name: string;
            /** Stats */
            stats: components["schemas"]["DagStatsStateResponse"][];
        };
        /**
         * DagStatsStateResponse
         * @description DagStatsState serializer for responses.
         */
        DagStatsStateResponse: {
            state: components["schemas"]["DagRunState"];
            /** Count */
            count: number;
        };
        /**
         * DagTagResponse
         * @description DAG Tag serializer for responses.
         */
        DagTagResponse: {
            /** Name */
            name: string;
            /** Dag Id */
            dag_id: string;
            /** Dag Display Name */
            dag_display_name: string;
        };
        /**
         * DagVersionResponse
         * @description Dag Version serializer for responses.
         */
        DagVersionResponse: {
            /**
             * Id
             * Format: uuid
             */
            id: string;
            /** Version Number */
            version_number: number;
            /** Dag Id */
            dag_id: string;
            /** Bundle Name */
            bundle_name: string | null;
            /** Bundle Version */
            bundle_version: string | null;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Dag Display Name */
            dag_display_name: string;
            /** Bundle Url */
            readonly bundle_url: string | null;
        };
        /**
         * DagWarningType
         * @description Enum for DAG warning types.
         *
         *     This is the set of allowable values for the ``warning_type`` field
         *     in the DagWarning model.
         * @enum {string}
         */
        DagWarningType: "asset conflict" | "non-existent pool";
        /**
         * DryRunBackfillCollectionResponse
         * @description Backfill collection serializer for responses in dry-run mode.
         */
        DryRunBackfillCollectionResponse: {
            /** Backfills */
            backfills: components["schemas"]["DryRunBackfillResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * DryRunBackfillResponse
         * @description Backfill serializer for responses in dry-run mode.
         */
        DryRunBackfillResponse: {
            /**
             * Logical Date
             * Format: date-time
             */
            logical_date: string;
        };
        /**
         * EventLogCollectionResponse
         * @description Event Log Collection Response.
         */
        EventLogCollectionResponse: {
            /** Event Logs */
            event_logs: components["schemas"]["EventLogResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * EventLogResponse
         * @description Event Log Response.
         */
        EventLogResponse: {
            /** Event Log Id */
            event_log_id: number;
            /**
             * When
             * Format: date-time
             */
            when: string;
            /** Dag Id */
            dag_id: string | null;
            /** Task Id */
            task_id: string | null;
            /** Run Id */
            run_id: string | null;
            /** Map Index */
            map_index: number | null;
            /** Try Number */
            try_number: number | null;
            /** Event */
            event: string;
            /** Logical Date */
            logical_date: string | null;
            /** Owner */
            owner: string | null;
            /** Extra */
            extra: string | null;
            /** Dag Display Name */
            dag_display_name?: string | null;
        };
        /**
         * ExternalLogUrlResponse
         * @description Response for the external log URL endpoint.
         */
        ExternalLogUrlResponse: {
            /** Url */
            url: string;
        };
        /**
         * ExternalViewResponse
         * @description Serializer for External View Plugin responses.
         */
        ExternalViewResponse: {
            /** Name */
            name: string;
            /** Icon */
            icon?: string | null;
            /** Icon Dark Mode */
            icon_dark_mode?: string | null;
            /** Url Route */
            url_route?: string | null;
            /** Category */
            category?: string | null;
            /** Href */
            href: string;
            /**
             * Destination
             * @default nav
             * @enum {string}
             */
            destination?: "nav" | "dag" | "dag_run" | "task" | "task_instance";
        } & {
            [key: string]: unknown;
        };
        /**
         * ExtraLinkCollectionResponse
         * @description Extra Links Response.
         */
        ExtraLinkCollectionResponse: {
            /** Extra Links */
            extra_links: {
                [key: string]: string | null;
            };
            /** Total Entries */
            total_entries: number;
        };
        /**
         * FastAPIAppResponse
         * @description Serializer for Plugin FastAPI App responses.
         */
        FastAPIAppResponse: {
            /** App */
            app: string;
            /** Url Prefix */
            url_prefix: string;
            /** Name */
            name: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * FastAPIRootMiddlewareResponse
         * @description Serializer for Plugin FastAPI root middleware responses.
         */
        FastAPIRootMiddlewareResponse: {
            /** Middleware */
            middleware: string;
            /** Name */
            name: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * HITLDetail
         * @description Schema for Human-in-the-loop detail.
         */
        HITLDetail: {
            task_instance: components["schemas"]["TaskInstanceResponse"];
            /** Options */
            options: string[];
            /** Subject */
            subject: string;
            /** Body */
            body?: string | null;
            /** Defaults */
            defaults?: string[] | null;
            /**
             * Multiple
             * @default false
             */
            multiple?: boolean;
            /** Params */
            params?: {
                [key: string]: unknown;
            };
            /** Respondents */
            respondents?: string[] | null;
            /** User Id */
            user_id?: string | null;
            /** Response At */
            response_at?: string | null;
            /** Chosen Options */
            chosen_options?: string[] | null;
            /** Params Input */
            params_input?: {
                [key: string]: unknown;
            };
            /**
             * Response Received
             * @default false
             */
            response_received?: boolean;
        };
        /**
         * HITLDetailCollection
         * @description Schema for a collection of Human-in-the-loop details.
         */
        HITLDetailCollection: {
            /** Hitl Details */
            hitl_details: components["schemas"]["HITLDetail"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * HITLDetailResponse
         * @description Response of updating a Human-in-the-loop detail.
         */
        HITLDetailResponse: {
            /** User Id */
            user_id: string;
            /**
             * Response At
             * Format: date-time
             */
            response_at: string;
            /** Chosen Options */
            chosen_options: string[];
            /** Params Input */
            params_input?: {
                [key: string]: unknown;
            };
        };
        /**
         * HTTPExceptionResponse
         * @description HTTPException Model used for error response.
         */
        HTTPExceptionResponse: {
            /** Detail */
            detail: string | {
                [key: string]: unknown;
            };
        };
        /** HTTPValidationError */
        HTTPValidationError: {
            /** Detail */
            detail?: components["schemas"]["ValidationError"][];
        };
        /**
         * HealthInfoResponse
         * @description Health serializer for responses.
         */
        HealthInfoResponse: {
            metadatabase: components["schemas"]["BaseInfoResponse"];
            scheduler: components["schemas"]["SchedulerInfoResponse"];
            triggerer: components["schemas"]["TriggererInfoResponse"];
            dag_processor?: components["schemas"]["DagProcessorInfoResponse"] | null;
        };
        /**
         * ImportErrorCollectionResponse
         * @description Import Error Collection Response.
         */
        ImportErrorCollectionResponse: {
            /** Import Errors */
            import_errors: components["schemas"]["ImportErrorResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * ImportErrorResponse
         * @description Import Error Response.
         */
        ImportErrorResponse: {
            /** Import Error Id */
            import_error_id: number;
            /**
             * Timestamp
             * Format: date-time
             */
            timestamp: string;
            /** Filename */
            filename: string;
            /** Bundle Name */
            bundle_name: string | null;
            /** Stack Trace */
            stack_trace: string;
        };
        /**
         * JobCollectionResponse
         * @description Job Collection Response.
         */
        JobCollectionResponse: {
            /** Jobs */
            jobs: components["schemas"]["JobResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * JobResponse
         * @description Job serializer for responses.
         */
        JobResponse: {
            /** Id */
            id: number;
            /** Dag Id */
            dag_id: string | null;
            /** State */
            state: string | null;
            /** Job Type */
            job_type: string | null;
            /** Start Date */
            start_date: string | null;
            /** End Date */
            end_date: string | null;
            /** Latest Heartbeat */
            latest_heartbeat: string | null;
            /** Executor Class */
            executor_class: string | null;
            /** Hostname */
            hostname: string | null;
            /** Unixname */
            unixname: string | null;
            /** Dag Display Name */
            dag_display_name?: string | null;
        };
        JsonValue: unknown;
        /**
         * LastAssetEventResponse
         * @description Last asset event response serializer.
         */
        LastAssetEventResponse: {
            /** Id */
            id?: number | null;
            /** Timestamp */
            timestamp?: string | null;
        };
        /**
         * PatchTaskInstanceBody
         * @description Request body for Clear Task Instances endpoint.
         */
        PatchTaskInstanceBody: {
            new_state?: components["schemas"]["TaskInstanceState"] | null;
            /** Note */
            note?: string | null;
            /**
             * Include Upstream
             * @default false
             */
            include_upstream?: boolean;
            /**
             * Include Downstream
             * @default false
             */
            include_downstream?: boolean;
            /**
             * Include Future
             * @default false
             */
            include_future?: boolean;
            /**
             * Include Past
             * @default false
             */
            include_past?: boolean;
        };
        /**
         * PluginCollectionResponse
         * @description Plugin Collection serializer.
         */
        PluginCollectionResponse: {
            /** Plugins */
            plugins: components["schemas"]["PluginResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * PluginImportErrorCollectionResponse
         * @description Plugin Import Error Collection serializer.
         */
        PluginImportErrorCollectionResponse: {
            /** Import Errors */
            import_errors: components["schemas"]["PluginImportErrorResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * PluginImportErrorResponse
         * @description Plugin Import Error serializer for responses.
         */
        PluginImportErrorResponse: {
            /** Source */
            source: string;
            /** Error */
            error: string;
        };
        /**
         * PluginResponse
         * @description Plugin serializer.
         */
        PluginResponse: {
            /** Name */
            name: string;
            /** Macros */
            macros: string[];
            /** Flask Blueprints */
            flask_blueprints: string[];
            /** Fastapi Apps */
            fastapi_apps: components["schemas"]["FastAPIAppResponse"][];
            /** Fastapi Root Middlewares */
            fastapi_root_middlewares: components["schemas"]["FastAPIRootMiddlewareResponse"][];
            /**
             * External Views
             * @description Aggregate all external views. Both 'external_views' and 'appbuilder_menu_items' are included here.
             */
            external_views: components["schemas"]["ExternalViewResponse"][];
            /** React Apps */
            react_apps: components["schemas"]["ReactAppResponse"][];
            /** Appbuilder Views */
            appbuilder_views: components["schemas"]["AppBuilderViewResponse"][];
            /**
             * Appbuilder Menu Items
             * @deprecated
             */
            appbuilder_menu_items: components["schemas"]["AppBuilderMenuItemResponse"][];
            /** Global Operator Extra Links */
            global_operator_extra_links: string[];
            /** Operator Extra Links */
            operator_extra_links: string[];
            /** Source */
            source: string;
            /** Listeners */
            listeners: string[];
            /** Timetables */
            timetables: string[];
        };
        /**
         * PoolBody
         * @description Pool serializer for post bodies.
         */
        PoolBody: {
            /** Name */
            name: string;
            /** Slots */
            slots: number;
            /** Description */
            description?: string | null;
            /**
             * Include Deferred
             * @default false
             */
            include_deferred?: boolean;
        };
        /**
         * PoolCollectionResponse
         * @description Pool Collection serializer for responses.
         */
        PoolCollectionResponse: {
            /** Pools */
            pools: components["schemas"]["PoolResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * PoolPatchBody
         * @description Pool serializer for patch bodies.
         */
        PoolPatchBody: {
            /** Pool */
            pool?: string | null;
            /** Slots */
            slots?: number | null;
            /** Description */
            description?: string | null;
            /** Include Deferred */
            include_deferred?: boolean | null;
        };
        /**
         * PoolResponse
         * @description Pool serializer for responses.
         */
        PoolResponse: {
            /** Name */
            name: string;
            /** Slots */
            slots: number;
            /** Description */
            description: string | null;
            /** Include Deferred */
            include_deferred: boolean;
            /** Occupied Slots */
            occupied_slots: number;
            /** Running Slots */
            running_slots: number;
            /** Queued Slots */
            queued_slots: number;
            /** Scheduled Slots */
            scheduled_slots: number;
            /** Open Slots */
            open_slots: number;
            /** Deferred Slots */
            deferred_slots: number;
        };
        /**
         * ProviderCollectionResponse
         * @description Provider Collection serializer for responses.
         */
        ProviderCollectionResponse: {
            /** Providers */
            providers: components["schemas"]["ProviderResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * ProviderResponse
         * @description Provider serializer for responses.
         */
        ProviderResponse: {
            /** Package Name */
            package_name: string;
            /** Description */
            description: string;
            /** Version */
            version: string;
        };
        /**
         * QueuedEventCollectionResponse
         * @description Queued Event Collection serializer for responses.
         */
        QueuedEventCollectionResponse: {
            /** Queued Events */
            queued_events: components["schemas"]["QueuedEventResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * QueuedEventResponse
         * @description Queued Event serializer for responses..
         */
        QueuedEventResponse: {
            /** Dag Id */
            dag_id: string;
            /** Asset Id */
            asset_id: number;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Dag Display Name */
            dag_display_name: string;
        };
        /**
         * ReactAppResponse
         * @description Serializer for React App Plugin responses.
         */
        ReactAppResponse: {
            /** Name */
            name: string;
            /** Icon */
            icon?: string | null;
            /** Icon Dark Mode */
            icon_dark_mode?: string | null;
            /** Url Route */
            url_route?: string | null;
            /** Category */
            category?: string | null;
            /** Bundle Url */
            bundle_url: string;
            /**
             * Destination
             * @default nav
             * @enum {string}
             */
            destination?: "nav" | "dag" | "dag_run" | "task" | "task_instance" | "dashboard";
        } & {
            [key: string]: unknown;
        };
        /**
         * ReprocessBehavior
         * @description Internal enum for setting reprocess behavior in a backfill.
         *
         *     :meta private:
         * @enum {string}
         */
        ReprocessBehavior: "failed" | "completed" | "none";
        /**
         * SchedulerInfoResponse
         * @description Scheduler info serializer for responses.
         */
        SchedulerInfoResponse: {
            /** Status */
            status: string | null;
            /** Latest Scheduler Heartbeat */
            latest_scheduler_heartbeat: string | null;
        };
        /**
         * StructuredLogMessage
         * @description An individual log message.
         */
        StructuredLogMessage: {
            /**
             * Timestamp
             * Format: date-time
             */
            timestamp?: string;
            /** Event */
            event: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * TaskCollectionResponse
         * @description Task collection serializer for responses.
         */
        TaskCollectionResponse: {
            /** Tasks */
            tasks: components["schemas"]["TaskResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * TaskDependencyCollectionResponse
         * @description Task scheduling dependencies collection serializer for responses.
         */
        TaskDependencyCollectionResponse: {
            /** Dependencies */
            dependencies: components["schemas"]["TaskDependencyResponse"][];
        };
        /**
         * TaskDependencyResponse
         * @description Task Dependency serializer for responses.
         */
        TaskDependencyResponse: {
            /** Name */
            name: string;
            /** Reason */
            reason: string;
        };
        /**
         * TaskInletAssetReference
         * @description Task inlet reference serializer for assets.
         */
        TaskInletAssetReference: {
            /** Dag Id */
            dag_id: string;
            /** Task Id */
            task_id: string;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
        };
        /**
         * TaskInstanceCollectionResponse
         * @description Task Instance Collection serializer for responses.
         */
        TaskInstanceCollectionResponse: {
            /** Task Instances */
            task_instances: components["schemas"]["TaskInstanceResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * TaskInstanceHistoryCollectionResponse
         * @description TaskInstanceHistory Collection serializer for responses.
         */
        TaskInstanceHistoryCollectionResponse: {
            /** Task Instances */
            task_instances: components["schemas"]["TaskInstanceHistoryResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * TaskInstanceHistoryResponse
         * @description TaskInstanceHistory serializer for responses.
         */
        TaskInstanceHistoryResponse: {
            /** Task Id */
            task_id: string;
            /** Dag Id */
            dag_id: string;
            /** Dag Run Id */
            dag_run_id: string;
            /** Map Index */
            map_index: number;
            /** Start Date */
            start_date: string | null;
            /** End Date */
            end_date: string | null;
            /** Duration */
            duration: number | null;
            state: components["schemas"]["TaskInstanceState"] | null;
            /** Try Number */
            try_number: number;
            /** Max Tries */
            max_tries: number;
            /** Task Display Name */
            task_display_name: string;
            /** Dag Display Name */
            dag_display_name: string;
            /** Hostname */
            hostname: string | null;
            /** Unixname */
            unixname: string | null;
            /** Pool */
            pool: string;
            /** Pool Slots */
            pool_slots: number;
            /** Queue */
            queue: string | null;
            /** Priority Weight */
            priority_weight: number | null;
            /** Operator */
            operator: string | null;
            /** Operator Name */
            operator_name: string | null;
            /** Queued When */
            queued_when: string | null;
            /** Scheduled When */
            scheduled_when: string | null;
            /** Pid */
            pid: number | null;
            /** Executor */
            executor: string | null;
            /** Executor Config */
            executor_config: string;
            dag_version: components["schemas"]["DagVersionResponse"] | null;
        };
        /**
         * TaskInstanceResponse
         * @description TaskInstance serializer for responses.
         */
        TaskInstanceResponse: {
            /** Id */
            id: string;
            /** Task Id */
            task_id: string;
            /** Dag Id */
            dag_id: string;
            /** Dag Run Id */
            dag_run_id: string;
            /** Map Index */
            map_index: number;
            /** Logical Date */
            logical_date: string | null;
            /**
             * Run After
             * Format: date-time
             */
            run_after: string;
            /** Start Date */
            start_date: string | null;
            /** End Date */
            end_date: string | null;
            /** Duration */
            duration: number | null;
            state: components["schemas"]["TaskInstanceState"] | null;
            /** Try Number */
            try_number: number;
            /** Max Tries */
            max_tries: number;
            /** Task Display Name */
            task_display_name: string;
            /** Dag Display Name */
            dag_display_name: string;
            /** Hostname */
            hostname: string | null;
            /** Unixname */
            unixname: string | null;
            /** Pool */
            pool: string;
            /** Pool Slots */
            pool_slots: number;
            /** Queue */
            queue: string | null;
            /** Priority Weight */
            priority_weight: number | null;
            /** Operator */
            operator: string | null;
            /** Operator Name */
            operator_name: string | null;
            /** Queued When */
            queued_when: string | null;
            /** Scheduled When */
            scheduled_when: string | null;
            /** Pid */
            pid: number | null;
            /** Executor */
            executor: string | null;
            /** Executor Config */
            executor_config: string;
            /** Note */
            note: string | null;
            /** Rendered Map Index */
            rendered_map_index: string | null;
            /** Rendered Fields */
            rendered_fields?: {
                [key: string]: unknown;
            };
            trigger: components["schemas"]["TriggerResponse"] | null;
            triggerer_job: components["schemas"]["JobResponse"] | null;
            dag_version: components["schemas"]["DagVersionResponse"] | null;
        };
        /**
         * TaskInstanceState
         * @description All possible states that a Task Instance can be in.
         *
         *     Note that None is also allowed, so always use this in a type hint with Optional.
         * @enum {string}
         */
        TaskInstanceState: "removed" | "scheduled" | "queued" | "running" | "success" | "restarting" | "failed" | "up_for_retry" | "up_for_reschedule" | "upstream_failed" | "skipped" | "deferred";
        /**
         * TaskInstancesBatchBody
         * @description Task Instance body for get batch.
         */
        TaskInstancesBatchBody: {
            /** Dag Ids */
            dag_ids?: string[] | null;
            /** Dag Run Ids */
            dag_run_ids?: string[] | null;
            /** Task Ids */
            task_ids?: string[] | null;
            /** State */
            state?: (components["schemas"]["TaskInstanceState"] | null)[] | null;
            /** Run After Gte */
            run_after_gte?: string | null;
            /** Run After Gt */
            run_after_gt?: string | null;
            /** Run After Lte */
            run_after_lte?: string | null;
            /** Run After Lt */
            run_after_lt?: string | null;
            /** Logical Date Gte */
            logical_date_gte?: string | null;
            /** Logical Date Gt */
            logical_date_gt?: string | null;
            /** Logical Date Lte */
            logical_date_lte?: string | null;
            /** Logical Date Lt */
            logical_date_lt?: string | null;
            /** Start Date Gte */
            start_date_gte?: string | null;
            /** Start Date Gt */
            start_date_gt?: string | null;
            /** Start Date Lte */
            start_date_lte?: string | null;
            /** Start Date Lt */
            start_date_lt?: string | null;
            /** End Date Gte */
            end_date_gte?: string | null;
            /** End Date Gt */
            end_date_gt?: string | null;
            /** End Date Lte */
            end_date_lte?: string | null;
            /** End Date Lt */
            end_date_lt?: string | null;
            /** Duration Gte */
            duration_gte?: number | null;
            /** Duration Gt */
            duration_gt?: number | null;
            /** Duration Lte */
            duration_lte?: number | null;
            /** Duration Lt */
            duration_lt?: number | null;
            /** Pool */
            pool?: string[] | null;
            /** Queue */
            queue?: string[] | null;
            /** Executor */
            executor?: string[] | null;
            /**
             * Page Offset
             * @default 0
             */
            page_offset?: number;
            /**
             * Page Limit
             * @default 100
             */
            page_limit?: number;
            /** Order By */
            order_by?: string | null;
        };
        /**
         * TaskInstancesLogResponse
         * @description Log serializer for responses.
         */
        TaskInstancesLogResponse: {
            /** Content */
            content: components["schemas"]["StructuredLogMessage"][] | string[];
            /** Continuation Token */
            continuation_token: string | null;
        };
        /**
         * TaskOutletAssetReference
         * @description Task outlet reference serializer for assets.
         */
        TaskOutletAssetReference: {
            /** Dag Id */
            dag_id: string;
            /** Task Id */
            task_id: string;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /**
             * Updated At
             * Format: date-time
             */
            updated_at: string;
        };
        /**
         * TaskResponse
         * @description Task serializer for responses.
         */
        TaskResponse: {
            /** Task Id */
            task_id: string | null;
            /** Task Display Name */
            task_display_name: string | null;
            /** Owner */
            owner: string | null;
            /** Start Date */
            start_date: string | null;
            /** End Date */
            end_date: string | null;
            /** Trigger Rule */
            trigger_rule: string | null;
            /** Depends On Past */
            depends_on_past: boolean;
            /** Wait For Downstream */
            wait_for_downstream: boolean;
            /** Retries */
            retries: number | null;
            /** Queue */
            queue: string | null;
            /** Pool */
            pool: string | null;
            /** Pool Slots */
            pool_slots: number | null;
            execution_timeout: components["schemas"]["TimeDelta"] | null;
            retry_delay: components["schemas"]["TimeDelta"] | null;
            /** Retry Exponential Backoff */
            retry_exponential_backoff: boolean;
            /** Priority Weight */
            priority_weight: number | null;
            /** Weight Rule */
            weight_rule: string | null;
            /** Ui Color */
            ui_color: string | null;
            /** Ui Fgcolor */
            ui_fgcolor: string | null;
            /** Template Fields */
            template_fields: string[] | null;
            /** Downstream Task Ids */
            downstream_task_ids: string[] | null;
            /** Doc Md */
            doc_md: string | null;
            /** Operator Name */
            operator_name: string | null;
            /** Params */
            params: {
                [key: string]: unknown;
            } | null;
            /** Class Ref */
            class_ref: {
                [key: string]: unknown;
            } | null;
            /** Is Mapped */
            is_mapped: boolean | null;
            /**
             * Extra Links
             * @description Extract and return extra_links.
             */
            readonly extra_links: string[];
        };
        /**
         * TimeDelta
         * @description TimeDelta can be used to interact with datetime.timedelta objects.
         */
        TimeDelta: {
            /**
             * Type
             * @default TimeDelta
             */
            __type?: string;
            /** Days */
            days: number;
            /** Seconds */
            seconds: number;
            /** Microseconds */
            microseconds: number;
        };
        /**
         * TriggerDAGRunPostBody
         * @description Trigger DAG Run Serializer for POST body.
         */
        TriggerDAGRunPostBody: {
            /** Dag Run Id */
            dag_run_id?: string | null;
            /** Data Interval Start */
            data_interval_start?: string | null;
            /** Data Interval End */
            data_interval_end?: string | null;
            /** Logical Date */
            logical_date: string | null;
            /** Run After */
            run_after?: string | null;
            /** Conf */
            conf?: {
                [key: string]: unknown;
            } | null;
            /** Note */
            note?: string | null;
        };
        /**
         * TriggerResponse
         * @description Trigger serializer for responses.
         */
        TriggerResponse: {
            /** Id */
            id: number;
            /** Classpath */
            classpath: string;
            /** Kwargs */
            kwargs: string;
            /**
             * Created Date
             * Format: date-time
             */
            created_date: string;
            /** Triggerer Id */
            triggerer_id: number | null;
        };
        /**
         * TriggererInfoResponse
         * @description Triggerer info serializer for responses.
         */
        TriggererInfoResponse: {
            /** Status */
            status: string | null;
            /** Latest Triggerer Heartbeat */
            latest_triggerer_heartbeat: string | null;
        };
        /**
         * UpdateHITLDetailPayload
         * @description Schema for updating the content of a Human-in-the-loop detail.
         */
        UpdateHITLDetailPayload: {
            /** Chosen Options */
            chosen_options: string[];
            /** Params Input */
            params_input?: {
                [key: string]: unknown;
            };
        };
        /** ValidationError */
        ValidationError: {
            /** Location */
            loc: (string | number)[];
            /** Message */
            msg: string;
            /** Error Type */
            type: string;
        };
        /**
         * VariableBody
         * @description Variable serializer for bodies.
         */
        VariableBody: {
            /** Key */
            key: string;
            value: components["schemas"]["JsonValue"];
            /** Description */
            description?: string | null;
        };
        /**
         * VariableCollectionResponse
         * @description Variable Collection serializer for responses.
         */
        VariableCollectionResponse: {
            /** Variables */
            variables: components["schemas"]["VariableResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * VariableResponse
         * @description Variable serializer for responses.
         */
        VariableResponse: {
            /** Key */
            key: string;
            /** Value */
            value: string;
            /** Description */
            description: string | null;
            /** Is Encrypted */
            is_encrypted: boolean;
        };
        /**
         * VersionInfo
         * @description Version information serializer for responses.
         */
        VersionInfo: {
            /** Version */
            version: string;
            /** Git Version */
            git_version: string | null;
        };
        /**
         * XComCollectionResponse
         * @description XCom Collection serializer for responses.
         */
        XComCollectionResponse: {
            /** Xcom Entries */
            xcom_entries: components["schemas"]["XComResponse"][];
            /** Total Entries */
            total_entries: number;
        };
        /**
         * XComCreateBody
         * @description Payload serializer for creating an XCom entry.
         */
        XComCreateBody: {
            /** Key */
            key: string;
            /** Value */
            value: unknown;
            /**
             * Map Index
             * @default -1
             */
            map_index?: number;
        };
        /**
         * XComResponse
         * @description Serializer for a xcom item.
         */
        XComResponse: {
            /** Key */
            key: string;
            /**
             * Timestamp
             * Format: date-time
             */
            timestamp: string;
            /** Logical Date */
            logical_date: string | null;
            /** Map Index */
            map_index: number;
            /** Task Id */
            task_id: string;
            /** Dag Id */
            dag_id: string;
            /** Run Id */
            run_id: string;
            /** Dag Display Name */
            dag_display_name: string;
            /** Task Display Name */
            task_display_name: string;
        };
        /**
         * XComResponseNative
         * @description XCom response serializer with native return type.
         */
        XComResponseNative: {
            /** Key */
            key: string;
            /**
             * Timestamp
             * Format: date-time
             */
            timestamp: string;
            /** Logical Date */
            logical_date: string | null;
            /** Map Index */
            map_index: number;
            /** Task Id */
            task_id: string;
            /** Dag Id */
            dag_id: string;
            /** Run Id */
            run_id: string;
            /** Dag Display Name */
            dag_display_name: string;
            /** Task Display Name */
            task_display_name: string;
            /** Value */
            value: unknown;
        };
        /**
         * XComResponseString
         * @description XCom response serializer with string return type.
         */
        XComResponseString: {
            /** Key */
            key: string;
            /**
             * Timestamp
             * Format: date-time
             */
            timestamp: string;
            /** Logical Date */
            logical_date: string | null;
            /** Map Index */
            map_index: number;
            /** Task Id */
            task_id: string;
            /** Dag Id */
            dag_id: string;
            /** Run Id */
            run_id: string;
            /** Dag Display Name */
            dag_display_name: string;
            /** Task Display Name */
            task_display_name: string;
            /** Value */
            value: string | null;
        };
        /**
         * XComUpdateBody
         * @description Payload serializer for updating an XCom entry.
         */
        XComUpdateBody: {
            /** Value */
            value: unknown;
            /**
             * Map Index
             * @default -1
             */
            map_index?: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    get_assets: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                name_pattern?: string | null;
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                uri_pattern?: string | null;
                dag_ids?: string[];
                only_active?: boolean;
                order_by?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_asset_aliases: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                name_pattern?: string | null;
                order_by?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetAliasCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_asset_alias: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                asset_alias_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_asset_events: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                order_by?: string[];
                asset_id?: number | null;
                source_dag_id?: string | null;
                source_task_id?: string | null;
                source_run_id?: string | null;
                source_map_index?: number | null;
                timestamp_gte?: string | null;
                timestamp_gt?: string | null;
                timestamp_lte?: string | null;
                timestamp_lt?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetEventCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    create_asset_event: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAssetEventsBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetEventResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    materialize_asset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                asset_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DAGRunResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_asset_queued_events: {
        parameters: {
            query?: {
                before?: string | null;
            };
            header?: never;
            path: {
                asset_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueuedEventCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    delete_asset_queued_events: {
        parameters: {
            query?: {
                before?: string | null;
            };
            header?: never;
            path: {
                asset_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_asset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                asset_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_dag_asset_queued_events: {
        parameters: {
            query?: {
                before?: string | null;
            };
            header?: never;
            path: {
                dag_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueuedEventCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    delete_dag_asset_queued_events: {
        parameters: {
            query?: {
                before?: string | null;
            };
            header?: never;
            path: {
                dag_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_dag_asset_queued_event: {
        parameters: {
            query?: {
                before?: string | null;
            };
            header?: never;
            path: {
                dag_id: string;
                asset_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueuedEventResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    delete_dag_asset_queued_event: {
        parameters: {
            query?: {
                before?: string | null;
            };
            header?: never;
            path: {
                dag_id: string;
                asset_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_backfills: {
        parameters: {
            query: {
                dag_id: string;
                limit?: number;
                offset?: number;
                order_by?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BackfillCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    create_backfill: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BackfillPostBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BackfillResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_backfill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                backfill_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BackfillResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    pause_backfill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                backfill_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BackfillResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    unpause_backfill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                backfill_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BackfillResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    cancel_backfill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                backfill_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BackfillResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    create_backfill_dry_run: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BackfillPostBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DryRunBackfillCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_connection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                connection_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    delete_connection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                connection_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    patch_connection: {
        parameters: {
            query?: {
                update_mask?: string[] | null;
            };
            header?: never;
            path: {
                connection_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConnectionBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_connections: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                order_by?: string[];
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                connection_id_pattern?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    post_connection: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConnectionBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    bulk_connections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkBody_ConnectionBody_"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    test_connection: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConnectionBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionTestResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    create_default_connections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
        };
    };
    get_dag_run: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DAGRunResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    delete_dag_run: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    patch_dag_run: {
        parameters: {
            query?: {
                update_mask?: string[] | null;
            };
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DAGRunPatchBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DAGRunResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_upstream_asset_events: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetEventCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    clear_dag_run: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DAGRunClearBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskInstanceCollectionResponse"] | components["schemas"]["DAGRunResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_dag_runs: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                run_after_gte?: string | null;
                run_after_gt?: string | null;
                run_after_lte?: string | null;
                run_after_lt?: string | null;
                logical_date_gte?: string | null;
                logical_date_gt?: string | null;
                logical_date_lte?: string | null;
                logical_date_lt?: string | null;
                start_date_gte?: string | null;
                start_date_gt?: string | null;
                start_date_lte?: string | null;
                start_date_lt?: string | null;
                end_date_gte?: string | null;
                end_date_gt?: string | null;
                end_date_lte?: string | null;
                end_date_lt?: string | null;
                updated_at_gte?: string | null;
                updated_at_gt?: string | null;
                updated_at_lte?: string | null;
                updated_at_lt?: string | null;
                run_type?: string[];
                state?: string[];
                order_by?: string[];
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                run_id_pattern?: string | null;
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                triggering_user_name_pattern?: string | null;
            };
            header?: never;
            path: {
                dag_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DAGRunCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    trigger_dag_run: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: unknown;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TriggerDAGRunPostBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DAGRunResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    wait_dag_run_until_finished: {
        parameters: {
            query: {
                /** @description Seconds to wait between dag run state checks */
                interval: number;
                /** @description Collect result XCom from task. Can be set multiple times. */
                result?: string[] | null;
            };
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                    "application/x-ndjson": string;
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_list_dag_runs_batch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: "~";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DAGRunsBatchBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DAGRunCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_dag_source: {
        parameters: {
            query?: {
                version_number?: number | null;
            };
            header?: {
                accept?: "application/json" | "text/plain" | "*/*";
            };
            path: {
                dag_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DAGSourceResponse"];
                    "text/plain": string;
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Acceptable */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_dag_stats: {
        parameters: {
            query?: {
                dag_ids?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DagStatsCollectionResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_dag_reports: {
        parameters: {
            query: {
                subdir: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_config: {
        parameters: {
            query?: {
                section?: string | null;
            };
            header?: {
                accept?: "application/json" | "text/plain" | "*/*";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Config"];
                    "text/plain": string;
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Acceptable */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_config_value: {
        parameters: {
            query?: never;
            header?: {
                accept?: "application/json" | "text/plain" | "*/*";
            };
            path: {
                section: string;
                option: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Config"];
                    "text/plain": string;
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Acceptable */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    list_dag_warnings: {
        parameters: {
            query?: {
                dag_id?: string | null;
                warning_type?: components["schemas"]["DagWarningType"] | null;
                limit?: number;
                offset?: number;
                order_by?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DAGWarningCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_dags: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                tags?: string[];
                tags_match_mode?: ("any" | "all") | null;
                owners?: string[];
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                dag_id_pattern?: string | null;
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                dag_display_name_pattern?: string | null;
                exclude_stale?: boolean;
                paused?: boolean | null;
                last_dag_run_state?: components["schemas"]["DagRunState"] | null;
                bundle_name?: string | null;
                bundle_version?: string | null;
                /** @description Filter Dags with asset-based scheduling */
                has_asset_schedule?: boolean | null;
                /** @description Filter Dags by asset dependency (name or URI) */
                asset_dependency?: string | null;
                dag_run_start_date_gte?: string | null;
                dag_run_start_date_gt?: string | null;
                dag_run_start_date_lte?: string | null;
                dag_run_start_date_lt?: string | null;
                dag_run_end_date_gte?: string | null;
                dag_run_end_date_gt?: string | null;
                dag_run_end_date_lte?: string | null;
                dag_run_end_date_lt?: string | null;
                dag_run_state?: string[];
                order_by?: string[];
                is_favorite?: boolean | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DAGCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    patch_dags: {
        parameters: {
            query?: {
                update_mask?: string[] | null;
                limit?: number;
                offset?: number;
                tags?: string[];
                tags_match_mode?: ("any" | "all") | null;
                owners?: string[];
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                dag_id_pattern?: string | null;
                exclude_stale?: boolean;
                paused?: boolean | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DAGPatchBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DAGCollectionResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_dag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DAGResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unprocessable Entity */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
        };
    };
    delete_dag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unprocessable Entity */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
        };
    };
    patch_dag: {
        parameters: {
            query?: {
                update_mask?: string[] | null;
            };
            header?: never;
            path: {
                dag_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DAGPatchBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DAGResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_dag_details: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DAGDetailsResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    favorite_dag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    unfavorite_dag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_event_log: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                event_log_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventLogResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_event_logs: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                order_by?: string[];
                dag_id?: string | null;
                task_id?: string | null;
                run_id?: string | null;
                map_index?: number | null;
                try_number?: number | null;
                owner?: string | null;
                event?: string | null;
                excluded_events?: string[] | null;
                included_events?: string[] | null;
                before?: string | null;
                after?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventLogCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_extra_links: {
        parameters: {
            query?: {
                map_index?: number;
            };
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExtraLinkCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_import_error: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                import_error_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportErrorResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_import_errors: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                order_by?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportErrorCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_jobs: {
        parameters: {
            query?: {
                is_alive?: boolean | null;
                start_date_gte?: string | null;
                start_date_gt?: string | null;
                start_date_lte?: string | null;
                start_date_lt?: string | null;
                end_date_gte?: string | null;
                end_date_gt?: string | null;
                end_date_lte?: string | null;
                end_date_lt?: string | null;
                limit?: number;
                offset?: number;
                order_by?: string[];
                job_state?: string | null;
                job_type?: string | null;
                hostname?: string | null;
                executor_class?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobCollectionResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_plugins: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PluginCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    import_errors: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PluginImportErrorCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
        };
    };
    get_pool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pool_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PoolResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    delete_pool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pool_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    patch_pool: {
        parameters: {
            query?: {
                update_mask?: string[] | null;
            };
            header?: never;
            path: {
                pool_name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PoolPatchBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PoolResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_pools: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                order_by?: string[];
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                pool_name_pattern?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PoolCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    post_pool: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PoolBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PoolResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    bulk_pools: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkBody_PoolBody_"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_providers: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProviderCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_xcom_entry: {
        parameters: {
            query?: {
                map_index?: number;
                deserialize?: boolean;
                stringify?: boolean;
            };
            header?: never;
            path: {
                dag_id: string;
                task_id: string;
                dag_run_id: string;
                xcom_key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["XComResponseNative"] | components["schemas"]["XComResponseString"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    update_xcom_entry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
                task_id: string;
                dag_run_id: string;
                xcom_key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["XComUpdateBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["XComResponseNative"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_xcom_entries: {
        parameters: {
            query?: {
                xcom_key?: string | null;
                map_index?: number | null;
                limit?: number;
                offset?: number;
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                xcom_key_pattern?: string | null;
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                dag_display_name_pattern?: string | null;
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                run_id_pattern?: string | null;
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                task_id_pattern?: string | null;
                map_index_filter?: number | null;
                logical_date_gte?: string | null;
                logical_date_gt?: string | null;
                logical_date_lte?: string | null;
                logical_date_lt?: string | null;
                run_after_gte?: string | null;
                run_after_gt?: string | null;
                run_after_lte?: string | null;
                run_after_lt?: string | null;
            };
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["XComCollectionResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    create_xcom_entry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
                task_id: string;
                dag_run_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["XComCreateBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["XComResponseNative"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_task_instance: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskInstanceResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    delete_task_instance: {
        parameters: {
            query?: {
                map_index?: number;
            };
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": null;
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    patch_task_instance: {
        parameters: {
            query?: {
                map_index?: number | null;
                update_mask?: string[] | null;
            };
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchTaskInstanceBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskInstanceCollectionResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_mapped_task_instances: {
        parameters: {
            query?: {
                run_after_gte?: string | null;
                run_after_gt?: string | null;
                run_after_lte?: string | null;
                run_after_lt?: string | null;
                logical_date_gte?: string | null;
                logical_date_gt?: string | null;
                logical_date_lte?: string | null;
                logical_date_lt?: string | null;
                start_date_gte?: string | null;
                start_date_gt?: string | null;
                start_date_lte?: string | null;
                start_date_lt?: string | null;
                end_date_gte?: string | null;
                end_date_gt?: string | null;
                end_date_lte?: string | null;
                end_date_lt?: string | null;
                updated_at_gte?: string | null;
                updated_at_gt?: string | null;
                updated_at_lte?: string | null;
                updated_at_lt?: string | null;
                duration_gte?: number | null;
                duration_gt?: number | null;
                duration_lte?: number | null;
                duration_lt?: number | null;
                state?: string[];
                pool?: string[];
                queue?: string[];
                executor?: string[];
                version_number?: number[];
                try_number?: number[];
                operator?: string[];
                limit?: number;
                offset?: number;
                order_by?: string[];
            };
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskInstanceCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_task_instance_dependencies_by_map_index: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
                map_index: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskDependencyCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_task_instance_dependencies: {
        parameters: {
            query?: {
                map_index?: number;
            };
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskDependencyCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_task_instance_tries: {
        parameters: {
            query?: {
                map_index?: number;
            };
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskInstanceHistoryCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_mapped_task_instance_tries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
                map_index: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskInstanceHistoryCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_mapped_task_instance: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
                map_index: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskInstanceResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    patch_task_instance_by_map_index: {
        parameters: {
            query?: {
                update_mask?: string[] | null;
            };
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
                map_index: number | null;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchTaskInstanceBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskInstanceCollectionResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_task_instances: {
        parameters: {
            query?: {
                task_id?: string | null;
                run_after_gte?: string | null;
                run_after_gt?: string | null;
                run_after_lte?: string | null;
                run_after_lt?: string | null;
                logical_date_gte?: string | null;
                logical_date_gt?: string | null;
                logical_date_lte?: string | null;
                logical_date_lt?: string | null;
                start_date_gte?: string | null;
                start_date_gt?: string | null;
                start_date_lte?: string | null;
                start_date_lt?: string | null;
                end_date_gte?: string | null;
                end_date_gt?: string | null;
                end_date_lte?: string | null;
                end_date_lt?: string | null;
                updated_at_gte?: string | null;
                updated_at_gt?: string | null;
                updated_at_lte?: string | null;
                updated_at_lt?: string | null;
                duration_gte?: number | null;
                duration_gt?: number | null;
                duration_lte?: number | null;
                duration_lt?: number | null;
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                task_display_name_pattern?: string | null;
                state?: string[];
                pool?: string[];
                queue?: string[];
                executor?: string[];
                version_number?: number[];
                try_number?: number[];
                operator?: string[];
                limit?: number;
                offset?: number;
                order_by?: string[];
            };
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskInstanceCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    bulk_task_instances: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkBody_BulkTaskInstanceBody_"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_task_instances_batch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: "~";
                dag_run_id: "~";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TaskInstancesBatchBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskInstanceCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_task_instance_try_details: {
        parameters: {
            query?: {
                map_index?: number;
            };
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
                task_try_number: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskInstanceHistoryResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_mapped_task_instance_try_details: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
                task_try_number: number;
                map_index: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskInstanceHistoryResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    post_clear_task_instances: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClearTaskInstancesBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskInstanceCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    patch_task_instance_dry_run_by_map_index: {
        parameters: {
            query?: {
                update_mask?: string[] | null;
            };
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
                map_index: number | null;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchTaskInstanceBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskInstanceCollectionResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    patch_task_instance_dry_run: {
        parameters: {
            query?: {
                map_index?: number | null;
                update_mask?: string[] | null;
            };
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchTaskInstanceBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskInstanceCollectionResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_tasks: {
        parameters: {
            query?: {
                order_by?: string;
            };
            header?: never;
            path: {
                dag_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskCollectionResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_task: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
                task_id: unknown;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_variable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                variable_key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VariableResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    delete_variable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                variable_key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    patch_variable: {
        parameters: {
            query?: {
                update_mask?: string[] | null;
            };
            header?: never;
            path: {
                variable_key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VariableBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VariableResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_variables: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                order_by?: string[];
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                variable_key_pattern?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VariableCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    post_variable: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VariableBody"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VariableResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    bulk_variables: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkBody_VariableBody_"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_log: {
        parameters: {
            query?: {
                full_content?: boolean;
                map_index?: number;
                token?: string | null;
            };
            header?: {
                accept?: "application/json" | "application/x-ndjson" | "*/*";
            };
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
                try_number: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskInstancesLogResponse"];
                    "application/x-ndjson": string;
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_external_log_url: {
        parameters: {
            query?: {
                map_index?: number;
            };
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
                try_number: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExternalLogUrlResponse"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    reparse_dag_file: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file_token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": null;
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_dag_tags: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                order_by?: string[];
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                tag_name_pattern?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DAGTagCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_dag_version: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                dag_id: string;
                version_number: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DagVersionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_dag_versions: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                version_number?: number;
                bundle_name?: string;
                bundle_version?: string | null;
                order_by?: string[];
            };
            header?: never;
            path: {
                dag_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DAGVersionCollectionResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_hitl_detail: {
        parameters: {
            query?: {
                map_index?: number;
            };
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HITLDetail"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    update_hitl_detail: {
        parameters: {
            query?: {
                map_index?: number;
            };
            header?: never;
            path: {
                dag_id: string;
                dag_run_id: string;
                task_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateHITLDetailPayload"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HITLDetailResponse"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_hitl_details: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                order_by?: string[];
                dag_id?: string | null;
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                dag_id_pattern?: string | null;
                dag_run_id?: string;
                task_id?: string | null;
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                task_id_pattern?: string | null;
                state?: string[];
                response_received?: boolean | null;
                user_id?: string[];
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                subject_search?: string | null;
                /** @description SQL LIKE expression — use `%` / `_` wildcards (e.g. `%customer_%`). Regular expressions are **not** supported. */
                body_search?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HITLDetailCollection"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    get_health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthInfoResponse"];
                };
            };
        };
    };
    get_version: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionInfo"];
                };
            };
        };
    };
    login: {
        parameters: {
            query?: {
                next?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Temporary Redirect */
            307: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: {
                next?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Temporary Redirect */
            307: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
    refresh: {
        parameters: {
            query?: {
                next?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Temporary Redirect */
            307: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPExceptionResponse"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
        };
    };
}
